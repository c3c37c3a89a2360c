package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The sprite output units' shifters shift only on visible dots with rendering on, their X
 * counters count on visible dots with rendering on or off, and dot 339 sets them counting only
 * when rendering is on there. Sprite 0, solid, sits at X $FF on line $51 over a solid background:
 * normally its one pixel is at x 255, where no hit can be. Rendering switched off before its slot
 * is fetched again (dot 263) and on before dot 339 leaves its unit drawing with the rest of its
 * row: line $52 draws it from x 0, a hit. The program does the off/on pair (24 cycles apart)
 * {@code n} cycles later per run, over the sync phases; the hit flag at the next vblank is its
 * record.
 */
class SpriteShiftersTest {
    static String program(int phase, int n, boolean toggle) {
        return String.join("\n",
                setUp(1),
                sprite0(0x50, 1, 0xFF),
                syncPhase(phase),
                startRendering(0x1E),
                "  jsr wait_vblank",
                "  lda #0",
                "  ldx #$1E",
                longDelay("late", 11650),
                delay(2 + n),
                toggle ? "  sta $2001" : "  stx $2001",
                delay(20),
                "  stx $2001",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                "  jmp pass");
    }

    private static int[] hits(boolean toggle) {
        return sweepPhases(0, 30, 16, 0x10, (phase, n) -> {
            HardwareProgram p = HardwareProgram.of(program(phase, n, toggle), solidTile1());
            return p;
        });
    }

    @Test
    void aUnitLeftDrawingShowsItsStaleRowFromTheLineStart() {
        final int[] toggled = hits(true);
        assertTrue(Arrays.stream(toggled).allMatch(v -> v >= 0), "every run records");
        assertTrue(Arrays.stream(toggled).anyMatch(v -> v == 0x40), "a hit from the stale row: " + Arrays.toString(toggled));
    }

    @Test
    void aSpriteAtXFfAloneMakesNoHit() {
        assertTrue(Arrays.stream(hits(false)).allMatch(v -> v == 0), "no hit at x 255");
    }
}
