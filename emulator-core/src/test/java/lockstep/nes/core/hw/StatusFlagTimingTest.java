package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * $2002's flags on their dots: vblank is latched as the read starts, sprite 0 hit and overflow
 * pass through until it ends, so a read starting one dot before their clear (pre-render dot 1)
 * returns $80: vblank still set, the hit already clear. The program makes a sprite 0 hit and
 * reads $2002 once, near the end of the vblank after it, {@code n} cycles later per run; over
 * the runs and six frame alignments the read crosses the clear dot by dot.
 */
class StatusFlagTimingTest {
    static String program(int phase, int n) {
        return String.join("\n",
                setUp(0),
                poke(0x2084, 1), // a solid tile under sprite 0
                sprite0(31, 1, 36),
                syncPhase(phase),
                startRendering(0x1E),
                // A frame of rendering with a hit, then its vblank untouched (no $2002 read
                // clears the flag) up to the timed read.
                longDelay("late", 31995),
                delay(2 + n),
                "  lda $2002",
                "  sta $10",
                "  and #$1F", // the open bus bits: a read of $2002, not of something else
                passUnless("bne"));
    }

    @Test
    void aReadStartingOnTheDotBeforeTheClearSeesVblankButNotTheHit() {
        int[] seen = new int[256];
        final int[] reads = sweepPhases(0, 24, 16, 0x10, (phase, n) -> HardwareProgram.of(program(phase, n), solidTile1()));
        for (int v : reads) {
            assertTrue(v >= 0, "every run records its read");
            seen[v & 0xE0]++;
        }
        assertTrue(seen[0xC0] > 0 && seen[0x00] > 0, "the sweep crosses the clear: " + Arrays.toString(seen));
        assertTrue(seen[0x80] > 0, "a read with vblank set and the hit already clear");
        assertEquals(reads.length, seen[0xC0] + seen[0x80] + seen[0x00], "no other values: " + Arrays.toString(seen));
    }
}
