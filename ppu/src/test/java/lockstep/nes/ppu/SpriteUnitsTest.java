package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sprite output units as {@link SpriteUnits} models them, dot by dot. */
class SpriteUnitsTest {
    private final SpriteUnits u = new SpriteUnits();

    @BeforeEach
    void setUp() {
        u.power();
    }

    /** The pixels of {@code n} visible dots with rendering on (the sprite line's form). */
    private int[] pixels(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = u.pixel();
        }
        return out;
    }

    @Test
    void aUnitCountsItsXDownThenDrawsItsRow() {
        u.load(0, 3, 0x01, 0xF0, 0x00, true);
        int[] p = pixels(12);
        for (int x = 0; x < 12; x++) {
            int expected = x >= 3 && x < 7 ? 0x10 | (1 << 2) | 1 | 0x40 : 0;
            assertEquals(expected, p[x], "x " + x);
        }
    }

    @Test
    void theFirstUnitWithAnOpaquePixelWinsAndSpriteZeroIsMarkedUnderneath() {
        u.load(0, 0, 0x00, 0x00, 0x0F, true); // sprite 0: opaque from its 5th pixel, colour 2
        u.load(1, 0, 0x23, 0xFF, 0x00, false); // behind the background, palette 3, colour 1
        int[] p = pixels(8);
        assertEquals(0x10 | 0x0C | 1 | 0x20, p[0], "unit 1 where unit 0 is transparent");
        assertEquals(0x10 | 2 | 0x40, p[4], "unit 0 first, its hit bit set");
    }

    @Test
    void inForcedBlankTheCountersCountAndTheShiftersHold() {
        u.load(2, 5, 0x00, 0x80, 0x80, false);
        u.clockCounters(40); // rendering off for 40 visible dots: the counter reached zero
        assertEquals(1 << 2, u.active & (1 << 2));
        assertEquals(0x10 | 3, u.pixel(), "the row's first pixel on the first dot with rendering on");
        assertEquals(0, u.pixel());
    }

    @Test
    void aHorizontalFlipReversesTheRow() {
        u.load(0, 0, 0x40, 0x01, 0x00, false);
        assertEquals(0x11, u.pixel());
    }

    @Test
    void goingLiveMidLineDerivesTheUnitsFromWhatWasLoaded() {
        // Loaded by the last line: X 96 and X 200, then 100 dots of this line rendered.
        u.load(0, 96, 0x00, 0xAA, 0x00, false);
        u.load(1, 200, 0x00, 0xFF, 0x00, false);
        u.goLive(true, true, 100);
        assertTrue(u.live);
        assertEquals(1, u.active & 3, "unit 0 is drawing, unit 1 still counting");
        assertEquals(0xA0, u.low[0] & 0xFF, "four pixels shifted out");
        assertEquals(100, u.counter[1] & 0xFF);

        // Past the fetch of slots 0 and 1 (dot 271), on a visible line: every unit was left
        // drawing by dot 256, and slots 0-1 hold this line's loads.
        u.power();
        u.load(0, 7, 0x00, 0xFF, 0x00, false);
        u.goLive(true, true, 271);
        assertEquals(0xFF, u.active);
        assertEquals(0x103, u.loaded);
        assertEquals(7, u.counter[0] & 0xFF, "a fresh load keeps its counter");

        // Forced blank begun outside the rendering lines: the units count from their X.
        u.power();
        u.load(3, 9, 0x00, 0xFF, 0x00, false);
        u.goLive(false, false, 120);
        assertEquals(0, u.active);
        assertEquals(9, u.counter[3] & 0xFF);
    }

    @Test
    void dot339EndsLivenessOnlyAfterAWholeFreshFetch() {
        u.goLive(false, false, 0);
        u.lineStart();
        for (int slot = 0; slot < 7; slot++) {
            u.load(slot, 0, 0, 0, 0, false);
        }
        u.active = 0x0F;
        u.restart();
        assertTrue(u.live, "slot 7 was not fetched");
        assertEquals(0, u.active, "set counting");
        u.lineStart();
        for (int slot = 0; slot < 8; slot++) {
            u.load(slot, 0, 0, 0, 0, false);
        }
        u.restart();
        assertFalse(u.live);
    }
}
