package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * The frame of each region's PPU (NESdev "Cycle reference chart"): its lines, where vertical
 * blank is set and cleared, the odd-frame skip of the 2C02 only, and the region's figures.
 */
class RegionTimingTest {
    private static Ppu powered(Region region) {
        Ppu ppu = new Ppu(new FakeBus(), region);
        ppu.power();
        return ppu;
    }

    /** Steps until the PPU has just executed (scanline, dot); returns the dots stepped. */
    private static int runTo(Ppu ppu, int scanline, int dot) {
        int n = 0;
        do {
            ppu.step();
            if (++n > 300_000) {
                throw new AssertionError("never reached " + scanline + "," + dot);
            }
        } while (ppu.scanline() != scanline || ppu.dot() != dot);
        return n;
    }

    @Test
    void theRegionsFigures() {
        assertEquals(262, Region.NTSC.lines);
        assertEquals(312, Region.PAL.lines);
        assertEquals(312, Region.DENDY.lines);
        // CPU cycles per frame: NTSC 29780.5 on average while rendering, PAL 33247.5, Dendy 35464.
        assertEquals(2 * 29780.5, (double) Region.NTSC.twoFrameClocks() / Region.NTSC.cpuDivider);
        assertEquals(2 * 33247.5, (double) Region.PAL.twoFrameClocks() / Region.PAL.cpuDivider);
        assertEquals(2 * 35464.0, (double) Region.DENDY.twoFrameClocks() / Region.DENDY.cpuDivider);
        assertEquals(60.0988, Region.NTSC.frameRate(), 0.00005);
        assertEquals(50.0070, Region.PAL.frameRate(), 0.00005);
        assertEquals(50.0070, Region.DENDY.frameRate(), 0.00005);
        assertEquals(1_789_773, Region.NTSC.cpuHz(), 1);
        assertEquals(1_662_607, Region.PAL.cpuHz(), 1);
        assertEquals(1_773_448, Region.DENDY.cpuHz(), 1);
        assertEquals(Region.DENDY, Region.byId("Dendy"));
        assertEquals(null, Region.byId("secam"));
    }

    @ParameterizedTest
    @EnumSource(Region.class)
    void vblankIsSetOnItsLineAndClearedOnThePreRenderLine(Region region) {
        Ppu ppu = powered(region);
        ppu.writeRegister(0, 0x80);
        runTo(ppu, region.vblankLine, 0);
        assertEquals(0, ppu.peekRegister(2) & 0x80);
        ppu.step();
        assertEquals(0x80, ppu.peekRegister(2) & 0x80, "set at " + region.vblankLine + ",1");
        assertTrue(ppu.nmiOutput());
        int dots = runTo(ppu, region.preRenderLine, 0);
        assertTrue(ppu.nmiOutput());
        ppu.step();
        assertEquals(0, ppu.peekRegister(2) & 0x80, "cleared at " + region.preRenderLine + ",1");
        assertFalse(ppu.nmiOutput());
        // NTSC and Dendy: 20 lines of vertical blank; PAL: 70.
        assertEquals(region == Region.PAL ? 70 : 20, (dots + 1) / 341);
    }

    @ParameterizedTest
    @EnumSource(Region.class)
    void framesAreTheRegionsLinesLongAndOnlyTheNtscOddFrameIsADotShort(Region region) {
        Ppu ppu = powered(region);
        ppu.writeRegister(1, 0x18);
        runTo(ppu, region.vblankLine, 1);
        long first = ppu.frameCount();
        int even = runTo(ppu, region.vblankLine, 1);
        int odd = runTo(ppu, region.vblankLine, 1);
        assertEquals(first + 2, ppu.frameCount());
        int full = region.lines * 341;
        if (region.oddFrameSkip) {
            assertEquals(2 * full - 1, even + odd);
        } else {
            assertEquals(full, even);
            assertEquals(full, odd);
        }
    }

    @ParameterizedTest
    @EnumSource(Region.class)
    void dotsToEventIsNeverLate(Region region) {
        Ppu ppu = powered(region);
        ppu.writeRegister(1, 0x18);
        ppu.writeRegister(0, 0x80);
        for (int i = 0; i < 3 * region.lines * 341; i++) {
            int k = ppu.dotsToEvent();
            boolean nmi = ppu.nmiOutput();
            long frame = ppu.frameCount();
            for (int j = 1; j < k; j++) {
                ppu.step();
                assertEquals(nmi, ppu.nmiOutput(), "NMI changed before its event");
                assertEquals(frame, ppu.frameCount(), "frame changed before its event");
                i++;
            }
            ppu.step();
        }
    }
}
