package lockstep.nes.core.cart.other;

import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Action53Test {
    private static Cartridge cart() {
        return Cartridge.builder("a53.nes", Roms.prg(512), new byte[0], 28).build();
    }

    private static void reg(Mapper m, int select, int value) {
        m.cpuWrite(0x5000, select);
        m.cpuWrite(0x8000, value);
    }

    /** The 8 KiB banks at $8000, $A000, $C000, $E000. */
    private static String banks(Mapper m) {
        return prgBank(m, 0x8000) + " " + prgBank(m, 0xA000) + " " + prgBank(m, 0xC000) + " " + prgBank(m, 0xE000);
    }

    @Test
    void powerOnMapsTheLast32KiB() {
        Mapper m = Roms.mapper(cart());
        assertEquals("60 61 62 63", banks(m));
        assertEquals("0000", nametables(m)); // mode 0: one-screen lower
    }

    @Test
    void bnromModesTakeInnerBitsByGameSize() {
        Mapper m = Roms.mapper(cart());
        reg(m, 0x81, 3); // outer: 32 KiB bank 3 (16 KiB banks 6, 7)
        reg(m, 0x80, 0x00); // 32 KiB game: the inner bank is ignored
        reg(m, 0x01, 1);
        assertEquals("12 13 14 15", banks(m));
        reg(m, 0x80, 0x10); // 64 KiB game: inner bit 0 picks the 32 KiB half
        assertEquals("12 13 14 15", banks(m));
        reg(m, 0x01, 0);
        assertEquals("8 9 10 11", banks(m));
        reg(m, 0x01, 2); // bit 1 is the outer bank's in a 64 KiB game
        assertEquals("8 9 10 11", banks(m));
        reg(m, 0x01, 1);
        reg(m, 0x80, 0x34); // 256 KiB game, mode 1 (also 32 KiB): 16 KiB banks (6 & ~15) | 2, | 3
        assertEquals("4 5 6 7", banks(m));
        reg(m, 0x01, 5);
        assertEquals("20 21 22 23", banks(m));
    }

    @Test
    void unromModesFixHalfOfTheOuterBank() {
        Mapper m = Roms.mapper(cart());
        reg(m, 0x81, 5); // 16 KiB banks 10 and 11
        reg(m, 0x01, 6);
        reg(m, 0x80, 0x2C); // 128 KiB game, UNROM (#2): current at $8000, top half fixed at $C000
        assertEquals("28 29 22 23", banks(m)); // (10 & ~7) | 6 = 14; fixed 11
        reg(m, 0x01, 0x1F); // only the low 3 bits count in a 128 KiB game
        assertEquals("30 31 22 23", banks(m)); // 8 | 7 = 15
        reg(m, 0x80, 0x28); // UNROM (#180): bottom half fixed at $8000, current at $C000
        assertEquals("20 21 30 31", banks(m));
        reg(m, 0x80, 0x0C); // 32 KiB game: the current bank is the outer bank's half picked by inner bit 0
        assertEquals("22 23 22 23", banks(m));
    }

    @Test
    void selectDecodesBits7And0Only() {
        Mapper m = Roms.mapper(cart());
        m.ppuWrite(0x0000, 0x31); // CHR-RAM bank 0
        m.cpuWrite(0x5FFF, 0x7E); // bits 7 and 0 clear: $00
        m.cpuWrite(0xFFFF, 2);
        assertEquals(0, m.ppuRead(0x0000)); // CHR bank 2
        m.cpuWrite(0x5123, 0xFF); // $81
        m.cpuWrite(0xC000, 1);
        m.cpuWrite(0x5000, 0x80); // $80
        m.cpuWrite(0xA000, 0x0E); // UNROM (#2), 32 KiB game, vertical
        m.cpuWrite(0x5000, 0x01); // $01
        m.cpuWrite(0x8000, 1);
        assertEquals("6 7 6 7", banks(m)); // outer 1: current (2 & ~1) | 1, fixed 2 | 1
        assertEquals("0101", nametables(m));
        m.cpuWrite(0x6000, 0x55); // nothing at $6000-$7FFF
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        reg(m, 0x00, 0);
        assertEquals(0x31, m.ppuRead(0x0000));
    }

    @Test
    void chrRamHasFour8KiBBanks() {
        Mapper m = Roms.mapper(cart());
        for (int b = 0; b < 4; b++) {
            reg(m, 0x00, b);
            m.ppuWrite(0x0123, 0x40 + b);
            m.ppuWrite(0x1F00, 0x50 + b);
        }
        for (int b = 0; b < 4; b++) {
            reg(m, 0x00, b | 0x04); // bit 2 is not a bank bit
            assertEquals(0x40 + b, m.ppuRead(0x0123));
            assertEquals(0x50 + b, m.ppuRead(0x1F00));
        }
    }

    @Test
    void mirroringModesAndTheAxromBit() {
        Mapper m = Roms.mapper(cart());
        reg(m, 0x80, 0x02);
        assertEquals("0101", nametables(m));
        reg(m, 0x01, 0x10); // D4 ignored in vertical/horizontal modes
        assertEquals("0101", nametables(m));
        reg(m, 0x80, 0x03);
        assertEquals("0011", nametables(m));
        reg(m, 0x80, 0x01);
        assertEquals("1111", nametables(m));
        reg(m, 0x01, 0x00); // one-screen: D4 of $01 picks the page
        assertEquals("0000", nametables(m));
        reg(m, 0x00, 0x10); // ... and of $00
        assertEquals("1111", nametables(m));
        reg(m, 0x80, 0x00);
        assertEquals("0000", nametables(m));
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart();
        Mapper m = Roms.mapper(cart);
        reg(m, 0x81, 9);
        reg(m, 0x80, 0x1D); // 64 KiB, UNROM #2, one-screen upper
        reg(m, 0x01, 3);
        reg(m, 0x00, 0x12);
        m.ppuWrite(0x0777, 0x99);
        m.cpuWrite(0x5000, 0x80); // leaves $80 selected
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        assertEquals(0x99, copy.ppuRead(0x0777));
        assertEquals("1111", nametables(copy));
        copy.cpuWrite(0x8000, 0x02); // the selected register came along too
        assertEquals("0101", nametables(copy));
    }
}
