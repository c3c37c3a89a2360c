package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackgroundTest {
    private final Timing timing = new Timing(Region.NTSC);
    private final Scroll scroll = new Scroll();
    private final Background background = new Background(scroll, new RenderBus(new FakeBus(), timing));

    @Test
    void theLowPatternShifterTakesZerosTheHighOneOnesAndAttributeShiftersTheirLatchBit() {
        background.atLatch = 1;
        background.reload(); // pattern latches 0: a blank tile of palette 1
        for (int i = 0; i < 8; i++) {
            background.shift();
        }
        assertEquals(0, background.pixel(0), "the blank tile in the high byte");
        assertEquals(0, background.shiftLow & 0xFF, "eight 0s shifted into the low plane");
        assertEquals(0xFF, background.shiftHigh & 0xFF, "eight 1s shifted into the high plane");
        assertEquals(0xFF00, background.atShiftLow & 0xFF00);
        assertEquals(0xFF, background.atShiftLow & 0xFF, "the latch bit shifted in");
        assertEquals(0, background.atShiftHigh & 0xFFFF);
        for (int i = 0; i < 8; i++) {
            background.shift();
        }
        // No reload for 16 shifts: the fill reaches the pixel as colour 2 of the latch's palette.
        assertEquals(0b0110, background.pixel(0));
    }

    @Test
    void aRenderingSwitchLandsOnTheFourthDotAfterTheWrite() {
        PpuDriver p = new PpuDriver();
        p.runTo(10, 100);
        p.ppu.writeRegister(1, 0x08);
        for (int i = 1; i <= 3; i++) {
            assertEquals(false, p.ppu.renderingEnabled(), "dot " + i + " after the write");
            p.ppu.step();
        }
        assertEquals(true, p.ppu.renderingEnabled(), "seen from the fourth dot");
        p.ppu.writeRegister(1, 0x00);
        p.ppu.step();
        p.ppu.writeRegister(1, 0x08); // off, then on again a dot later: each lands 3 dots on
        p.ppu.step();
        assertEquals(true, p.ppu.renderingEnabled());
        p.ppu.step();
        assertEquals(false, p.ppu.renderingEnabled(), "the off write lands");
        p.ppu.step();
        assertEquals(true, p.ppu.renderingEnabled(), "the on write lands a dot later");
    }

    @Test
    void aReloadReplacesOnlyTheLowByte() {
        background.shiftLow = 0xABFF;
        background.patternLowLatch = 0x12;
        background.reload();
        assertEquals(0xAB12, background.shiftLow);
    }

    @Test
    void dotsOneAndThreeTwentyOneNeitherShiftNorReload() {
        background.shiftLow = 0x8000;
        background.patternLowLatch = 0x55;
        background.dot(1, 0);
        assertEquals(0x8000, background.shiftLow);
        background.dot(321, 0);
        assertEquals(0x8000, background.shiftLow);
        background.dot(9, 0);
        assertEquals(0x0055, background.shiftLow & 0xFFFF, "dot 9 shifts, then reloads");
        background.dot(10, 0);
        assertEquals(0x00AA, background.shiftLow & 0xFFFF);
    }

    /** Tile 1: row 0 all set in the low plane; palette entry 1 shown as 0x16, the backdrop 0x0F. */
    private static PpuDriver pictureWithTile1(PpuDriver p) {
        for (int i = 0; i < 8; i++) {
            p.bus.mem[0x0010 + i] = 0xFF;
        }
        p.runTo(261, 2);
        p.runTo(241, 10);
        p.palette(0, 0x0F);
        p.palette(1, 0x16);
        p.palette(3, 0x30);
        return p;
    }

    @Test
    void afterForcedBlankFromHblankThePixelsComeFromTheShiftersAsDot257LeftThem() {
        // Line 16 fetches its columns 32 and 33 (the next nametable's 0 and 1) on dots 241-256:
        // column 32 is solid, column 33 blank.
        PpuDriver p = pictureWithTile1(new PpuDriver());
        p.bus.mem[0x2400 + 2 * 32] = 1;
        p.ppu.writeRegister(1, 0x0A);
        p.runTo(16, 300);
        p.ppu.writeRegister(1, 0x00); // off in hblank, after dot 257
        p.runTo(18, 98);
        p.ppu.writeRegister(1, 0x0A); // on again from dot 102 (x = 101)
        p.finishFrame();
        // Dot 257 shifted column 32 whole into the high byte: it shows for the 7 dots whose
        // shift precedes the pixel (its first pixel left on the re-enabling dot's shift).
        for (int x = 101; x <= 107; x++) {
            assertEquals(0x16, p.pixel(x, 18), "x=" + x);
        }
        assertEquals(0x0F, p.pixel(108, 18), "column 33 (blank) follows");
        assertEquals(0x0F, p.pixel(100, 18), "forced blank before");
    }

    @Test
    void skippedReloadsLetTheShiftedInOnesShow() {
        // A blank nametable. Rendering goes off over dots 326-337 of line 20, so the reloads of
        // 329 and 337 are skipped while 322-325 and line 21's 2-8 still shift: with fine X 7
        // (pixels read bit 8) the fill (0s in the low plane, 1s in the high) shows as colour 2 on
        // x = 5..8 of line 21. Each $2001 write takes effect from the fourth dot after it.
        PpuDriver p = pictureWithTile1(new PpuDriver());
        p.palette(2, 0x2A);
        p.ppu.writeRegister(5, 7);
        p.ppu.writeRegister(5, 0);
        p.ppu.writeRegister(1, 0x0A);
        p.runTo(20, 322);
        p.ppu.writeRegister(1, 0x00);
        p.runTo(20, 334);
        p.ppu.writeRegister(1, 0x0A);
        p.finishFrame();
        for (int x = 0; x < 256; x++) {
            final int expected = x >= 5 && x <= 8 ? 0x2A : 0x0F;
            assertEquals(expected, p.pixel(x, 21), "x=" + x);
            assertEquals(0x0F, p.pixel(x, 20), "x=" + x);
        }
    }
}
