package lockstep.nes.core.cart;

import static lockstep.nes.core.cart.BoardAsserts.assertChrBanks;
import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import lockstep.nes.core.cart.nintendo.BnRom;
import lockstep.nes.core.cart.other.Nina001;
import org.junit.jupiter.api.Test;

/** The one-register boards: each test builds a cartridge and checks its banking and mirroring. */
class DiscreteMappersTest {
    private static Mapper m(int mapper, int prgKib, int chrKib) {
        return Roms.mapper(Roms.cart(mapper, prgKib, chrKib));
    }

    @Test
    void nrom() {
        Mapper m = m(0, 16, 8);
        assertPrgBanks(m, 0, 1);
        assertEquals(0, prgBank(m, 0xC000)); // NROM-128 mirrored
        assertEquals(7, chrBank(m, 0x1C00));
        m.cpuWrite(0x6123, 0x44);
        assertEquals(0x44, m.cpuRead(0x6123));
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x5000));
        assertEquals("0011", nametables(m));
    }

    @Test
    void uxrom() {
        Mapper m = m(2, 256, 0);
        assertEquals(30, prgBank(m, 0xC000));
        m.cpuWrite(0x8000, 5);
        assertEquals(10, prgBank(m, 0x8000));
        assertEquals(11, prgBank(m, 0xA000));
        assertEquals(31, prgBank(m, 0xE000));
        m.ppuWrite(0x1234, 0x56); // CHR-RAM
        assertEquals(0x56, m.ppuRead(0x1234));
        // Submapper 2: bus conflicts AND the value with the ROM byte under the address.
        Mapper c = Roms.mapper(Cartridge.builder("c.nes", Roms.prg(256), new byte[0], 2).submapper(2).build());
        c.cpuWrite(0xC000, 0x0F); // ROM at $C000 holds 30 ($1E): 0x0F & 0x1E = 0x0E
        assertEquals(28, prgBank(c, 0x8000));
        c.cpuWrite(0xDFF0, 0x03); // ROM byte $FF there: no conflict
        assertEquals(6, prgBank(c, 0x8000));
    }

    @Test
    void un1romAndMapper180() {
        Mapper u = m(94, 128, 0);
        u.cpuWrite(0x8000, 3 << 2);
        assertEquals(6, prgBank(u, 0x8000));
        assertEquals(14, prgBank(u, 0xC000));
        Mapper c = m(180, 128, 0);
        assertEquals(0, prgBank(c, 0x8000));
        c.cpuWrite(0x8000, 5);
        assertEquals(0, prgBank(c, 0x8000));
        assertEquals(10, prgBank(c, 0xC000));
    }

    @Test
    void cnrom() {
        Mapper m = m(3, 32, 32);
        m.cpuWrite(0x8000, 3);
        assertEquals(24, chrBank(m, 0x0000));
        assertEquals(31, chrBank(m, 0x1C00));
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(3, prgBank(m, 0xE000));
    }

    @Test
    void axrom() {
        Mapper m = m(7, 256, 0);
        m.cpuWrite(0x8000, 0x13);
        assertEquals(12, prgBank(m, 0x8000));
        assertEquals(15, prgBank(m, 0xE000));
        assertEquals("1111", nametables(m));
        m.cpuWrite(0x8000, 0x02);
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals("0000", nametables(m));
    }

    @Test
    void colorDreams() {
        Mapper m = m(11, 128, 128);
        m.cpuWrite(0xFFF0, 0x52);
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals(40, chrBank(m, 0x0000));
        m.cpuWrite(0x8000, 0xFF); // bus conflict with ROM byte 0 there (bank 8 -> $08)
        assertEquals(0, chrBank(m, 0x0000));
        assertEquals(0, prgBank(m, 0x8000));
    }

    @Test
    void gxrom() {
        Mapper m = m(66, 128, 32);
        m.cpuWrite(0x8000, 0x23);
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals(24, chrBank(m, 0x0000));
    }

    @Test
    void bnromAndNina001() {
        Mapper b = Roms.mapper(Cartridge.builder("b.nes", Roms.prg(128), new byte[0], 34).build());
        assertInstanceOf(BnRom.class, b);
        b.cpuWrite(0xFFF0, 3);
        assertEquals(12, prgBank(b, 0x8000));
        assertEquals(15, prgBank(b, 0xE000));
        Mapper n = m(34, 64, 64); // CHR ROM over 8 KiB: NINA-001
        assertInstanceOf(Nina001.class, n);
        n.cpuWrite(0x7FFD, 1);
        n.cpuWrite(0x7FFE, 3);
        n.cpuWrite(0x7FFF, 9);
        assertEquals(4, prgBank(n, 0x8000));
        assertEquals(12, chrBank(n, 0x0000));
        assertEquals(36, chrBank(n, 0x1000));
        assertEquals(9, n.cpuRead(0x7FFF)); // the RAM under the register holds the value too
    }

    @Test
    void nina03() {
        Mapper m = m(79, 64, 64);
        m.cpuWrite(0x4000, 0x0F); // not the register (A8 clear)
        assertEquals(0, prgBank(m, 0x8000));
        m.cpuWrite(0x4100, 0x0D);
        assertEquals(4, prgBank(m, 0x8000));
        assertEquals(40, chrBank(m, 0x0000));
        m.cpuWrite(0x5F00, 0x00); // mirror of the register
        assertEquals(0, prgBank(m, 0x8000));
    }

    @Test
    void jaleco87() {
        Mapper m = m(87, 32, 32);
        m.cpuWrite(0x6000, 1); // bits swapped: 1 -> bank 2
        assertEquals(16, chrBank(m, 0x0000));
        m.cpuWrite(0x7FFF, 2);
        assertEquals(8, chrBank(m, 0x0000));
    }

    @Test
    void jalecoJf11() {
        Mapper m = m(140, 128, 128);
        m.cpuWrite(0x6000, 0x35);
        assertEquals(12, prgBank(m, 0x8000));
        assertEquals(40, chrBank(m, 0x0000));
    }

    @Test
    void camerica() {
        Mapper m = m(71, 256, 0);
        assertEquals(30, prgBank(m, 0xC000));
        m.cpuWrite(0xC000, 4);
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals("0011", nametables(m)); // header mirroring until a BF9097 write
        m.cpuWrite(0x9000, 0x10);
        assertEquals("1111", nametables(m));
        m.cpuWrite(0x8000, 0x00);
        assertEquals("0000", nametables(m));
    }

    @Test
    void quattro() {
        Mapper m = m(232, 256, 0);
        m.cpuWrite(0x8000, 0x18); // block 3
        m.cpuWrite(0xC000, 0x01);
        assertEquals(26, prgBank(m, 0x8000));
        assertEquals(30, prgBank(m, 0xC000));
        m.cpuWrite(0x8000, 0x08); // block 1
        assertEquals(10, prgBank(m, 0x8000));
        assertEquals(14, prgBank(m, 0xC000));
    }

    @Test
    void namco108() {
        Mapper m = m(206, 128, 64);
        int[] values = {4, 7, 20, 21, 22, 23, 3, 5};
        for (int r = 0; r < 8; r++) {
            m.cpuWrite(0x8000, r);
            m.cpuWrite(0x8001, values[r]);
        }
        assertChrBanks(m, 4, 5);
        assertEquals(6, chrBank(m, 0x0800)); // 2 KiB bank: low bit ignored
        assertEquals(20, chrBank(m, 0x1000));
        assertEquals(23, chrBank(m, 0x1C00));
        assertPrgBanks(m, 3, 5, 14, 15);
    }
}
