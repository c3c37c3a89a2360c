package lockstep.nes.core.cart.sunsoft;

import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Sunsoft4Test {
    private static Cartridge cart() {
        return Roms.cart(68, 128, 256);
    }

    /** The byte each nametable shows at offset $155 (from CHR-ROM: the 1 KiB bank number). */
    private static String tables(Mapper m) {
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < 4; t++) {
            sb.append(t == 0 ? "" : " ").append(m.ppuRead(0x2155 + t * 0x400));
        }
        return sb.toString();
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(cart());
        assertEquals(14, prgBank(m, 0xC000));
        assertEquals(15, prgBank(m, 0xE000));
        m.cpuWrite(0xF000, 0x03);
        assertPrgBanks(m, 6, 7, 14);
        for (int i = 0; i < 4; i++) {
            m.cpuWrite(0x8000 + i * 0x1000 + 0x123, 10 + i);
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(20 + 2 * i, chrBank(m, i * 0x800));
            assertEquals(21 + 2 * i, chrBank(m, i * 0x800 + 0x400));
        }
        m.cpuWrite(0x6000, 0x44); // PRG-RAM disabled
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        m.cpuWrite(0xF000, 0x13); // enabled, same bank
        m.cpuWrite(0x6000, 0x44);
        assertEquals(0x44, m.cpuRead(0x6000));
        assertEquals(6, prgBank(m, 0x8000));
        String[] expected = {"0101", "0011", "0000", "1111"};
        for (int i = 0; i < 4; i++) {
            m.cpuWrite(0xE000, i);
            assertEquals(expected[i], nametables(m));
        }
    }

    @Test
    void chrRomNametablesFollowTheArrangement() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 0x05); // bank $85 = 133
        m.cpuWrite(0xD000, 0x8A); // bit 7 set anyway: 138
        m.ppuWrite(0x2155, 0x11); // into CIRAM page 0
        m.cpuWrite(0xE000, 0x10); // vertical, from ROM
        assertEquals("133 138 133 138", tables(m));
        m.cpuWrite(0xE000, 0x11);
        assertEquals("133 133 138 138", tables(m));
        m.cpuWrite(0xE000, 0x12);
        assertEquals("133 133 133 133", tables(m));
        m.cpuWrite(0xE000, 0x13);
        assertEquals("138 138 138 138", tables(m));
        m.ppuWrite(0x2155, 0x99); // ROM: the write goes nowhere
        assertEquals("138 138 138 138", tables(m));
        m.cpuWrite(0xE000, 0x00); // CIRAM again: its contents kept
        assertEquals("17 0 17 0", tables(m));
        assertEquals(133, m.ppuRead(0x0000) + 133); // pattern tables unaffected (bank 0)
        assertNull(m.direct()); // the board answers nametable reads itself
        assertTrue(m.lazyPpuSafe());
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0xC000, 0x01);
        m.cpuWrite(0xD000, 0x02);
        m.cpuWrite(0xE000, 0x11);
        m.cpuWrite(0xF000, 0x15);
        m.cpuWrite(0x9000, 0x09);
        m.cpuWrite(0x7123, 0x5C);
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        assertEquals("129 129 130 130", tables(copy));
        assertEquals(0x5C, copy.cpuRead(0x7123));
        assertEquals(18, chrBank(copy, 0x0800));
    }
}
