package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

/** The MMC5 driven by hand: CPU writes and reads, and the PPU's reads of a rendered line. */
class Mmc5Test {
    private static Mapper mmc5() {
        return Roms.mapper(Roms.cart(5, 256, 256));
    }

    /** With NES 2.0 PRG-RAM of {@code ramKib} KiB. */
    private static Mapper mmc5WithRam(int ramKib) {
        return Roms.mapper(Cartridge.builder("test.nes", Roms.prg(256), Roms.chr(256), 5).submapper(0)
                .prgRam(ramKib * 1024, 0).build());
    }

    private static void unprotect(Mapper m) {
        m.cpuWrite(0x5102, 2);
        m.cpuWrite(0x5103, 1);
    }

    @Test
    void powerOnMapsTheLastBankInEightKibMode() {
        Mapper m = mmc5();
        assertEquals(31, prgBank(m, 0xE000));
    }

    @Test
    void prgModesZeroToThree() {
        Mapper m = mmc5();
        m.cpuWrite(0x5117, 0x80 | 9);
        m.cpuWrite(0x5100, 0); // 32 KiB: $5117 with bits 0-1 ignored
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals(9, prgBank(m, 0xA000));
        assertEquals(11, prgBank(m, 0xE000));
        m.cpuWrite(0x5100, 1); // 16 + 16: $5115 (ROM with bit 7), $5117
        m.cpuWrite(0x5115, 0x80 | 5);
        assertEquals(4, prgBank(m, 0x8000));
        assertEquals(5, prgBank(m, 0xA000));
        assertEquals(8, prgBank(m, 0xC000));
        assertEquals(9, prgBank(m, 0xE000));
        m.cpuWrite(0x5100, 2); // 16 + 8 + 8
        m.cpuWrite(0x5116, 0x80 | 13);
        assertEquals(4, prgBank(m, 0xA000 - 0x2000));
        assertEquals(13, prgBank(m, 0xC000));
        assertEquals(9, prgBank(m, 0xE000));
        m.cpuWrite(0x5100, 3); // four 8 KiB banks
        m.cpuWrite(0x5114, 0x80 | 21);
        assertEquals(21, prgBank(m, 0x8000));
        assertEquals(5, prgBank(m, 0xA000));
        assertEquals(13, prgBank(m, 0xC000));
        assertEquals(9, prgBank(m, 0xE000));
    }

    @Test
    void prgRamInTheRomAreaAndItsProtection() {
        Mapper m = mmc5();
        m.cpuWrite(0x5100, 3);
        m.cpuWrite(0x5114, 2); // bit 7 clear: PRG-RAM bank 2 at $8000
        m.cpuWrite(0x5113, 1);
        m.cpuWrite(0x8000, 0x77); // protected: ignored
        m.cpuWrite(0x6000, 0x66);
        assertEquals(0, m.cpuRead(0x8000));
        assertEquals(0, m.cpuRead(0x6000));
        m.cpuWrite(0x5102, 2); // one of the two is not enough
        m.cpuWrite(0x8000, 0x77);
        assertEquals(0, m.cpuRead(0x8000));
        m.cpuWrite(0x5103, 1);
        m.cpuWrite(0x8000, 0x77);
        m.cpuWrite(0x6000, 0x66);
        assertEquals(0x77, m.cpuRead(0x8000));
        assertEquals(0x66, m.cpuRead(0x6000));
        m.cpuWrite(0x5113, 2); // the same RAM bank at $6000
        assertEquals(0x77, m.cpuRead(0x6000));
        m.cpuWrite(0x5114, 0x82); // back to ROM: the RAM keeps its byte
        assertEquals(2, m.cpuRead(0x8000));
        m.cpuWrite(0xE000, 0x55); // $E000 is always ROM
        assertEquals(31, prgBank(m, 0xE000));
    }

    @Test
    void ramBanksFollowTheChips() {
        Mapper two = mmc5WithRam(16); // two 8 KiB chips: bit 2 picks one
        unprotect(two);
        two.cpuWrite(0x5113, 0);
        two.cpuWrite(0x6000, 0x11);
        two.cpuWrite(0x5113, 4);
        two.cpuWrite(0x6000, 0x44);
        two.cpuWrite(0x5113, 3);
        assertEquals(0x11, two.cpuRead(0x6000));
        two.cpuWrite(0x5113, 7);
        assertEquals(0x44, two.cpuRead(0x6000));
        Mapper one = mmc5WithRam(8); // one chip: banks 4-7 select the empty socket
        unprotect(one);
        one.cpuWrite(0x5113, 5);
        assertEquals(Mapper.OPEN_BUS, one.cpuRead(0x6000));
        one.cpuWrite(0x5113, 2);
        one.cpuWrite(0x6000, 0x22);
        one.cpuWrite(0x5113, 0);
        assertEquals(0x22, one.cpuRead(0x6000));
    }

    @Test
    void multiplier() {
        Mapper m = mmc5();
        m.cpuWrite(0x5205, 0xC8);
        m.cpuWrite(0x5206, 0x7B);
        assertEquals((0xC8 * 0x7B) & 0xFF, m.cpuRead(0x5205));
        assertEquals((0xC8 * 0x7B) >> 8, m.cpuRead(0x5206));
        m.cpuWrite(0x5206, 0xFF);
        m.cpuWrite(0x5205, 0xFF);
        assertEquals(0x01, m.cpuRead(0x5205));
        assertEquals(0xFE, m.cpuRead(0x5206));
    }

    @Test
    void chrModesWithEightByEightSprites() {
        Mapper m = mmc5();
        for (int i = 0; i < 12; i++) {
            m.cpuWrite(0x5120 + i, 0x10 + i);
        }
        m.cpuWrite(0x5101, 3); // 1 KiB: $5120-$5127
        for (int p = 0; p < 8; p++) {
            assertEquals(0x10 + p, chrBank(m, p * 0x400));
        }
        m.cpuWrite(0x5101, 2); // 2 KiB: $5121, $5123, $5125, $5127
        assertEquals(0x11 * 2, chrBank(m, 0x0000));
        assertEquals(0x11 * 2 + 1, chrBank(m, 0x0400));
        assertEquals(0x17 * 2 + 1, chrBank(m, 0x1C00));
        m.cpuWrite(0x5101, 1); // 4 KiB: $5123, $5127
        assertEquals((0x13 * 4) & 0xFF, chrBank(m, 0x0000));
        assertEquals((0x17 * 4 + 3) & 0xFF, chrBank(m, 0x1C00));
        m.cpuWrite(0x5101, 0); // 8 KiB: $5127
        m.cpuWrite(0x5127, 3);
        assertEquals(24, chrBank(m, 0x0000));
        assertEquals(31, chrBank(m, 0x1C00));
    }

    @Test
    void theUpperChrBitsAreTakenAtEachWrite() {
        Mapper m = Roms.mapper(Roms.cart(5, 256, 1024));
        m.cpuWrite(0x5101, 3);
        m.cpuWrite(0x5130, 2);
        m.cpuWrite(0x5120, 0x05);
        m.cpuWrite(0x5130, 0);
        m.cpuWrite(0x5121, 0x06);
        assertEquals(0x05, chrBank(m, 0x0000)); // bank $205: its bytes are $05
        m.cpuWrite(0x5101, 0);
        m.cpuWrite(0x5127, 0x40); // 8 KiB bank $40 without the upper bits: 1 KiB bank $200
        assertEquals(0x00, chrBank(m, 0x0000));
    }

    /** Two reads of the address the next line's first fetch reads: the end of a line. */
    private static void lineEnd(Mapper m, int row) {
        m.ppuRead(0x2000 + row * 32 + 2);
        m.ppuRead(0x2000 + row * 32 + 2);
    }

    /**
     * One rendered line's PPU reads from dot 1 to dot 339 (row {@code row} of the nametable):
     * tiles 2-33 (nametable, attribute, two pattern planes at $0000 + tile 0), eight sprite
     * slots (two nametable reads, two pattern planes at $1000), the next line's tiles 0-1 and
     * the two unused nametable reads. Returns every value read, in order.
     */
    private static int[] line(Mapper m, int row) {
        int[] out = new int[170];
        int k = 0;
        final int nt = 0x2000 + row * 32;
        for (int t = 2; t < 34; t++) {
            out[k++] = m.ppuRead(nt + (t & 31));
            out[k++] = m.ppuRead(0x23C0 + (row >> 2) * 8 + ((t & 31) >> 2));
            out[k++] = m.ppuRead(0x0000);
            out[k++] = m.ppuRead(0x0008);
        }
        for (int s = 0; s < 8; s++) {
            out[k++] = m.ppuRead(nt + 2);
            out[k++] = m.ppuRead(nt + 2);
            out[k++] = m.ppuRead(0x1000);
            out[k++] = m.ppuRead(0x1008);
        }
        final int next = nt + 32;
        for (int t = 0; t < 2; t++) {
            out[k++] = m.ppuRead(next + t);
            out[k++] = m.ppuRead(0x23C0 + ((row + 1) >> 2) * 8);
            out[k++] = m.ppuRead(0x0000);
            out[k++] = m.ppuRead(0x0008);
        }
        out[k++] = m.ppuRead(next + 2);
        out[k] = m.ppuRead(next + 2);
        return out;
    }

    private static void idle(Mapper m, int cycles) {
        for (int i = 0; i < cycles; i++) {
            m.cpuCycle();
        }
    }

    @Test
    void scanlineIrqFromThreeReadsOfOneNametableAddress() {
        Mapper m = mmc5();
        m.cpuWrite(0x5203, 3);
        m.cpuWrite(0x5204, 0x80);
        assertEquals(0x00, m.cpuRead(0x5204));
        lineEnd(m, 0); // the pre-render line's end
        line(m, 0); // in frame from its first read, counter 0
        assertEquals(0x40, m.cpuRead(0x5204) & 0x40);
        line(m, 1);
        line(m, 2);
        assertFalse(m.irq());
        line(m, 3); // its first read is the third of one address: line 3 starts
        assertTrue(m.irq());
        assertEquals(0xC0, m.cpuRead(0x5204)); // pending and in frame; the read acknowledges
        assertFalse(m.irq());
        assertEquals(0x40, m.cpuRead(0x5204));
        // Pending without the enable: seen in $5204, not on /IRQ; enabling raises /IRQ.
        m.cpuWrite(0x5204, 0);
        m.cpuWrite(0x5203, 4);
        line(m, 4);
        assertFalse(m.irq());
        m.cpuWrite(0x5204, 0x80);
        assertTrue(m.irq());
        // Three CPU cycles without a PPU read end the frame.
        idle(m, 2);
        assertEquals(0x40, m.cpuPeek(0x5204) & 0x40);
        idle(m, 1);
        assertEquals(0x80, m.cpuRead(0x5204));
    }

    @Test
    void theNmiVectorFetchEndsTheFrame() {
        Mapper m = mmc5();
        lineEnd(m, 0);
        line(m, 0);
        assertEquals(0x40, m.cpuPeek(0x5204));
        m.cpuRead(0xFFFA);
        assertEquals(0x00, m.cpuPeek(0x5204));
    }

    @Test
    void tallSpritesFetchFromSetAAndTheBackgroundFromSetB() {
        Mapper m = mmc5();
        m.cpuWrite(0x5101, 3);
        m.ppuRegisterWrite(0x2000, 0x20); // 8x16 sprites
        for (int i = 0; i < 12; i++) {
            m.cpuWrite(0x5120 + i, 0x20 + i);
        }
        lineEnd(m, 0);
        int[] r = line(m, 0);
        assertEquals(0x28, r[2]); // background $0000: $5128
        assertEquals(0x28, r[3]);
        assertEquals(0x24, r[128 + 2]); // sprite $1000: $5124
        assertEquals(0x28, r[160 + 2]); // the next line's tiles: background again
        // Outside the frame the last set written serves ($2007).
        idle(m, 3);
        assertEquals(0x2B, chrBank(m, 0x0C00));
        m.cpuWrite(0x5120, 0x30);
        assertEquals(0x30, chrBank(m, 0x0000));
        // With 8x8 sprites set A serves everything.
        m.ppuRegisterWrite(0x2000, 0x00);
        m.cpuWrite(0x512B, 0x31);
        assertEquals(0x23, chrBank(m, 0x0C00));
        lineEnd(m, 0);
        r = line(m, 0);
        assertEquals(0x30, r[2]);
        // Mirrors of $2000 are not watched.
        idle(m, 3);
        m.ppuRegisterWrite(0x2008, 0x20);
        m.cpuWrite(0x512B, 0x31);
        assertEquals(0x23, chrBank(m, 0x0C00));
    }

    @Test
    void exRamModes() {
        Mapper m = mmc5();
        // Modes 0 and 1: not readable; written only while the PPU renders (else 0 is written).
        m.cpuWrite(0x5C10, 0x99);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x5C10));
        m.cpuWrite(0x5104, 2);
        assertEquals(0x00, m.cpuRead(0x5C10));
        m.cpuWrite(0x5104, 0);
        lineEnd(m, 0);
        line(m, 0);
        m.cpuWrite(0x5C10, 0x99);
        m.cpuWrite(0x5104, 2); // mode 2: RAM
        assertEquals(0x99, m.cpuRead(0x5C10));
        m.cpuWrite(0x5C11, 0x42);
        assertEquals(0x42, m.cpuRead(0x5C11));
        m.cpuWrite(0x5104, 3); // mode 3: read-only
        m.cpuWrite(0x5C11, 0x43);
        assertEquals(0x42, m.cpuRead(0x5C11));
    }

    @Test
    void nametablesCiramExRamAndFill() {
        Mapper m = mmc5();
        m.cpuWrite(0x5105, 0x44); // 0, 1, 0, 1
        assertEquals("0101", nametables(m));
        m.cpuWrite(0x5105, 0x50); // 0, 0, 1, 1
        assertEquals("0011", nametables(m));
        m.cpuWrite(0x5105, 0xE4); // 0, 1, ExRAM, fill
        m.ppuWrite(0x2805, 0x5A); // the ExRAM nametable (mode 0)
        m.cpuWrite(0x5104, 2);
        assertEquals(0x5A, m.cpuRead(0x5C05));
        assertEquals(0x00, m.ppuRead(0x2805)); // modes 2 and 3: the ExRAM nametable reads 0
        m.cpuWrite(0x5104, 0);
        assertEquals(0x5A, m.ppuRead(0x2805));
        m.cpuWrite(0x5106, 0x3C);
        m.cpuWrite(0x5107, 2);
        assertEquals(0x3C, m.ppuRead(0x2C00));
        assertEquals(0x3C, m.ppuRead(0x2FBF));
        assertEquals(0xAA, m.ppuRead(0x2FC0)); // attributes: the fill palette in every quadrant
        m.ppuWrite(0x2C00, 0x11); // the fill nametable is not memory
        assertEquals(0x3C, m.ppuRead(0x2C00));
    }

    @Test
    void extendedAttributes() {
        Mapper m = Roms.mapper(Roms.cart(5, 256, 1024));
        m.cpuWrite(0x5104, 1);
        m.cpuWrite(0x5130, 1);
        lineEnd(m, 0);
        line(m, 0);
        // Tile 2 of row 1: palette 3, 4 KiB bank $40 | 5 (the upper bits from $5130).
        m.cpuWrite(0x5C00 + 32 + 2, 0xC5);
        m.cpuWrite(0x5C00 + 32 + 3, 0x41);
        int[] r = line(m, 1);
        assertEquals(0xFF, r[1]);
        assertEquals(((0x45 * 4) & 0xFF), r[2]); // bank $45's first 1 KiB page
        assertEquals(0x55, r[5]); // tile 3: palette 1
        assertEquals(((0x41 * 4) & 0xFF), r[6]);
    }

    @Test
    void verticalSplitOnTheLeft() {
        Mapper m = mmc5();
        m.cpuWrite(0x5200, 0x80 | 4); // left of tile 4
        m.cpuWrite(0x5201, 8); // the split's own vertical scroll: row 1 at line 0
        m.cpuWrite(0x5202, 3); // its 4 KiB CHR bank
        m.cpuWrite(0x5104, 2);
        m.cpuWrite(0x5C00 + 32 + 2, 0x66); // split tile (row 1, column 2)
        m.cpuWrite(0x5C00 + 0x3C0, 0x1B); // its attribute byte
        m.cpuWrite(0x5104, 0);
        lineEnd(m, 0);
        int[] r = line(m, 0);
        assertEquals(0x66, r[0]); // tile 2 from ExRAM
        assertEquals(0x1B, r[1]);
        assertEquals(12, r[2]); // the split bank's first page (bank 3 of 4 KiB)
        assertEquals(0x00, r[4 * 2]); // tile 4: the ordinary nametable (CIRAM, zeros)
        assertEquals(0, r[4 * 2 + 2]); // and the ordinary CHR bank 0
    }
}
