package lockstep.nes.core.cart;

import static lockstep.nes.core.cart.BoardAsserts.assertIrqAfter;
import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.BoardAsserts.cycles;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** VRC6, Bandai FCG, Irem G-101/H3001/78, Taito TC0190, VRC1, Sunsoft-1/2, CPROM, 70/152, 185. */
class MoreMappersTest {
    private static Mapper m(int mapper, int prgKib, int chrKib) {
        return Roms.mapper(Roms.cart(mapper, prgKib, chrKib));
    }

    @Test
    void vrc6BankingAndIrq() {
        for (int mapper : new int[] {24, 26}) {
            Mapper m = m(mapper, 256, 256);
            int b003 = mapper == 24 ? 0xB003 : 0xB003; // A0/A1 both set: same address on both
            m.cpuWrite(0x8000, 3);
            m.cpuWrite(0xC000, 9);
            assertPrgBanks(m, 6, 7, 9, 31);
            int[] offsets = mapper == 24 ? new int[] {0, 1, 2, 3} : new int[] {0, 2, 1, 3};
            for (int i = 0; i < 8; i++) {
                m.cpuWrite((i < 4 ? 0xD000 : 0xE000) + offsets[i & 3], 40 + i);
            }
            for (int i = 0; i < 8; i++) {
                assertEquals(40 + i, chrBank(m, i * 0x400), mapper + " CHR " + i);
            }
            m.cpuWrite(b003, 0x04);
            assertEquals("0011", nametables(m));
            m.cpuWrite(b003, 0x8C);
            assertEquals("1111", nametables(m));
            m.cpuWrite(0x6000, 0x21);
            assertEquals(0x21, m.cpuRead(0x6000));
            m.cpuWrite(0xF000 + offsets[0], 0xFE);
            m.cpuWrite(0xF000 + offsets[1], 0x06); // enable, CPU-cycle mode
            assertIrqAfter(m, 2);
            m.cpuWrite(0xF000 + offsets[2], 0);
            assertFalse(m.irq());
        }
    }

    @Test
    void bandaiFcg() {
        for (int base : new int[] {0x6000, 0x8000}) {
            Mapper m = m(16, 256, 256);
            for (int i = 0; i < 8; i++) {
                m.cpuWrite(base + i, 50 + i);
            }
            m.cpuWrite(base + 8, 5);
            m.cpuWrite(base + 9, 1);
            assertEquals(50, chrBank(m, 0));
            assertEquals(57, chrBank(m, 0x1C00));
            assertEquals(10, prgBank(m, 0x8000));
            assertEquals(30, prgBank(m, 0xC000));
            assertEquals("0011", nametables(m));
            m.cpuWrite(base + 11, 3);
            m.cpuWrite(base + 12, 0);
            m.cpuWrite(base + 10, 1);
            assertIrqAfter(m, 4);
            m.cpuWrite(base + 10, 0);
            assertFalse(m.irq());
        }
    }

    @Test
    void taitoTc0190() {
        Mapper m = m(33, 256, 256);
        m.cpuWrite(0x8000, 0x45);
        m.cpuWrite(0x8001, 6);
        m.cpuWrite(0x8002, 10);
        m.cpuWrite(0x8003, 21);
        m.cpuWrite(0xA000, 100);
        m.cpuWrite(0xA003, 103);
        assertPrgBanks(m, 5, 6, 30);
        assertEquals(20, chrBank(m, 0x0000));
        assertEquals(43, chrBank(m, 0x0C00));
        assertEquals(100, chrBank(m, 0x1000));
        assertEquals(103, chrBank(m, 0x1C00));
        assertEquals("0011", nametables(m));
    }

    @Test
    void iremG101() {
        Mapper m = m(32, 256, 256);
        m.cpuWrite(0x8000, 4);
        m.cpuWrite(0xA000, 5);
        m.cpuWrite(0xB007, 77);
        assertPrgBanks(m, 4, 5, 30);
        assertEquals(77, chrBank(m, 0x1C00));
        m.cpuWrite(0x9000, 3);
        assertEquals(30, prgBank(m, 0x8000));
        assertEquals(4, prgBank(m, 0xC000));
        assertEquals("0011", nametables(m));
    }

    @Test
    void iremH3001() {
        Mapper m = m(65, 256, 256);
        m.cpuWrite(0x8000, 3);
        m.cpuWrite(0xB002, 9);
        m.cpuWrite(0x9001, 0x80);
        assertEquals(3, prgBank(m, 0x8000));
        assertEquals(9, chrBank(m, 0x0800));
        assertEquals("0011", nametables(m));
        m.cpuWrite(0x9005, 0);
        m.cpuWrite(0x9006, 5);
        m.cpuWrite(0x9004, 0);
        m.cpuWrite(0x9003, 0x80);
        assertIrqAfter(m, 5);
        cycles(m, 100);
        m.cpuWrite(0x9003, 0x00);
        assertFalse(m.irq());
    }

    @Test
    void vrc1() {
        Mapper m = m(75, 128, 128);
        m.cpuWrite(0x8000, 1);
        m.cpuWrite(0xA000, 2);
        m.cpuWrite(0xC000, 3);
        m.cpuWrite(0x9000, 0x05); // horizontal, CHR1 high bit
        m.cpuWrite(0xE000, 2);
        m.cpuWrite(0xF000, 3);
        assertEquals(1, prgBank(m, 0x8000));
        assertEquals(3, prgBank(m, 0xC000));
        assertEquals(15, prgBank(m, 0xE000));
        assertEquals(8, chrBank(m, 0x0000));
        assertEquals((16 + 3) * 4 % 128, chrBank(m, 0x1000));
        assertEquals("0011", nametables(m));
    }

    @Test
    void iremJf16Mirroring() {
        Mapper cosmo = Roms.mapper(Cartridge.builder("c.nes", Roms.prg(128), Roms.chr(128), 78).submapper(1).build());
        cosmo.cpuWrite(0xFFF0, 0x5A);
        assertEquals(4, prgBank(cosmo, 0x8000));
        assertEquals(40, chrBank(cosmo, 0x0000));
        assertEquals("1111", nametables(cosmo));
        Mapper diver = Roms.mapper(Cartridge.builder("h.nes", Roms.prg(128), Roms.chr(128), 78).submapper(3).build());
        diver.cpuWrite(0xFFF0, 0x08);
        assertEquals("0101", nametables(diver));
        diver.cpuWrite(0xFFF0, 0x00);
        assertEquals("0011", nametables(diver));
    }

    @Test
    void sunsoftAndBandaiDiscrete() {
        Mapper s2 = m(89, 128, 128);
        s2.cpuWrite(0xFFF0, 0x80 | 0x30 | 0x08 | 0x02);
        assertEquals(6, prgBank(s2, 0x8000));
        assertEquals(10 * 8, chrBank(s2, 0x0000));
        assertEquals("1111", nametables(s2));
        Mapper s1 = m(184, 32, 32);
        s1.cpuWrite(0x6000, 0x21);
        assertEquals(4, chrBank(s1, 0x0000));
        assertEquals(24, chrBank(s1, 0x1000)); // bank 2 | 4 = 6
        Mapper b = m(152, 128, 128);
        b.cpuWrite(0xFFF0, 0xA3);
        assertEquals(4, prgBank(b, 0x8000));
        assertEquals(24, chrBank(b, 0x0000));
        assertEquals("1111", nametables(b));
        Mapper b70 = m(70, 256, 128);
        b70.cpuWrite(0xFFF0, 0xA3);
        assertEquals(20, prgBank(b70, 0x8000));
    }

    @Test
    void cpromAndChrProtection() {
        Mapper c = Roms.mapper(Cartridge.builder("c.nes", Roms.prg(32), new byte[0], 13).build());
        assertEquals(16384, c.chrRam.size());
        c.ppuWrite(0x0000, 0x11);
        c.cpuWrite(0xFFF0, 2);
        c.ppuWrite(0x1000, 0x22);
        c.cpuWrite(0xFFF0, 3);
        assertEquals(0, c.ppuRead(0x1000));
        c.cpuWrite(0xFFF0, 2);
        assertEquals(0x22, c.ppuRead(0x1000));
        assertEquals(0x11, c.ppuRead(0x0000));
        Mapper p = m(185, 32, 8);
        assertEquals(0xFF, p.ppuRead(0x0400));
        p.cpuWrite(0xFFF0, 0x01);
        assertEquals(1, p.ppuRead(0x0400));
        p.cpuWrite(0xFFF0, 0x13);
        assertEquals(0xFF, p.ppuRead(0x0400));
        Mapper keyed = Roms.mapper(Cartridge.builder("k.nes", Roms.prg(32), Roms.chr(8), 185).submapper(6).build());
        keyed.cpuWrite(0xFFF0, 0x01);
        assertEquals(0xFF, keyed.ppuRead(0));
        keyed.cpuWrite(0xFFF0, 0x02);
        assertEquals(0, keyed.ppuRead(0));
    }

    @Test
    void jalecoSs88006() {
        Mapper m = m(18, 256, 256);
        m.cpuWrite(0x8000, 0x05);
        m.cpuWrite(0x8001, 0x01); // PRG 0 = $15
        m.cpuWrite(0x8002, 0x03);
        m.cpuWrite(0x9000, 0x07);
        m.cpuWrite(0xD003, 0x0A);
        m.cpuWrite(0xD002, 0x04); // CHR 7 = $A4
        assertPrgBanks(m, 21, 3, 7, 31);
        assertEquals(0xA4, chrBank(m, 0x1C00));
        m.cpuWrite(0xF002, 1);
        assertEquals("0101", nametables(m));
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        m.cpuWrite(0x9002, 3);
        m.cpuWrite(0x6000, 0x66);
        assertEquals(0x66, m.cpuRead(0x6000));
        // 4-bit counter: reload $1234 keeps the high bits, the low nibble counts 4 -> 0.
        m.cpuWrite(0xE000, 4);
        m.cpuWrite(0xE001, 3);
        m.cpuWrite(0xE002, 2);
        m.cpuWrite(0xE003, 1);
        m.cpuWrite(0xF000, 0);
        m.cpuWrite(0xF001, 0x09);
        assertIrqAfter(m, 4);
        m.cpuWrite(0xF001, 0x00);
        assertFalse(m.irq());
    }

    @Test
    void namco108Variants() {
        Mapper m88 = m(88, 128, 128);
        for (int r = 0; r < 6; r++) {
            m88.cpuWrite(0x8000, r);
            m88.cpuWrite(0x8001, 2 + r);
        }
        assertEquals(2, chrBank(m88, 0x0000));
        assertEquals(64 + 4, chrBank(m88, 0x1000)); // $1000 half: CHR A16 set
        Mapper m154 = m(154, 128, 128);
        m154.cpuWrite(0x8000, 0x40);
        assertEquals("1111", nametables(m154));
        m154.cpuWrite(0x8001, 0x00);
        assertEquals("0000", nametables(m154));
        Mapper m95 = m(95, 128, 32);
        m95.cpuWrite(0x8000, 0);
        m95.cpuWrite(0x8001, 0x20);
        m95.cpuWrite(0x8000, 1);
        m95.cpuWrite(0x8001, 0x02);
        assertEquals("1100", nametables(m95));
        assertEquals(0, chrBank(m95, 0x0000));
        Mapper m76 = m(76, 128, 128);
        m76.cpuWrite(0x8000, 2);
        m76.cpuWrite(0x8001, 5);
        m76.cpuWrite(0x8000, 5);
        m76.cpuWrite(0x8001, 9);
        assertEquals(10, chrBank(m76, 0x0000));
        assertEquals(11, chrBank(m76, 0x0400));
        assertEquals(18, chrBank(m76, 0x1800));
    }

    @Test
    void namco163() {
        Mapper m = m(19, 256, 256);
        m.cpuWrite(0xE000, 3);
        m.cpuWrite(0xE800, 4);
        m.cpuWrite(0xF000, 5);
        assertPrgBanks(m, 3, 4, 5, 31);
        m.cpuWrite(0x8000, 17);
        m.cpuWrite(0xB800, 99);
        assertEquals(17, chrBank(m, 0x0000));
        assertEquals(99, chrBank(m, 0x1C00));
        // Nametables: CIRAM pages by $E0/$E1, or CHR ROM.
        m.cpuWrite(0xC000, 0xE0);
        m.cpuWrite(0xC800, 0xE1);
        m.cpuWrite(0xD000, 0xE0);
        m.cpuWrite(0xD800, 0xE1);
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xD800, 42);
        assertEquals(42, m.ppuRead(0x2C00));
        assertEquals(42, m.ppuRead(0x3C00)); // $3000-$3EFF mirrors
        // Pattern pages can show CIRAM unless $E800 bit 6/7 forbids it.
        m.ppuWrite(0x2000, 0x77);
        m.cpuWrite(0x8000, 0xE0);
        assertEquals(0x77, m.ppuRead(0x0000));
        m.cpuWrite(0xE800, 0x44);
        assertEquals(0xE0, m.ppuRead(0x0000));
        // Internal RAM with auto-increment, IRQ counter counting up to $7FFF.
        m.cpuWrite(0xF800, 0x80 | 0x10);
        m.cpuWrite(0x4800, 0xAB);
        m.cpuWrite(0x4800, 0xCD);
        m.cpuWrite(0xF800, 0x80 | 0x10);
        assertEquals(0xAB, m.cpuPeek(0x4800));
        assertEquals(0xAB, m.cpuRead(0x4800));
        assertEquals(0xCD, m.cpuRead(0x4800));
        m.cpuWrite(0x5000, 0xFD);
        m.cpuWrite(0x5800, 0x80 | 0x7F);
        assertEquals(0xFF, m.cpuRead(0x5800));
        assertIrqAfter(m, 2);
        assertEquals(0xFF, m.cpuRead(0x5000));
        cycles(m, 5);
        assertEquals(0xFF, m.cpuRead(0x5000)); // stops at $7FFF
        m.cpuWrite(0x5800, 0);
        assertFalse(m.irq());
    }
}
