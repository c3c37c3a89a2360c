package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The background shift registers are clocked only on dots 2-257 and 322-337 with rendering on,
 * and the high pattern shifter takes a 1 into bit 0 on each shift. With a blank nametable,
 * rendering switched off over the reloads of dots 329 and 337 (but on for the shifts before and
 * after) lets those 1s (colour 2, opaque) reach the pixels at the start of the next line:
 * sprite 0 there, over nothing but blank tiles, makes a hit. The program does the off/on pair {@code n} cycles later per
 * run (over the sync phases, every dot of a stretch); a sprite 0 hit seen at the next vblank is
 * its record.
 */
class BackgroundShiftersTest {
    static String serialIn(int phase, int n, boolean toggle) {
        return String.join("\n",
                setUp(0),
                sprite0(20, 1, 2), // line 21, x 2-9
                syncPhase(phase),
                "  lda #7",
                "  sta $2005", // fine X 7: pixels read bit 8 of the shifters
                "  lda #0",
                "  sta $2005",
                "  sta $2006",
                "  sta $2006",
                "  lda #$1E",
                "  sta $2001",
                "  jsr wait_vblank",
                "  lda #0",
                "  ldx #$1E",
                longDelay("late", 4730),
                delay(2 + n),
                toggle ? "  sta $2001" : "  stx $2001",
                "  stx $2001",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                "  jmp pass");
    }

    private static int[] hits(boolean toggle) {
        return sweepPhases(0, 30, 16, 0x10, (phase, n) -> HardwareProgram.of(serialIn(phase, n, toggle), solidTile1()));
    }

    @Test
    void onesShiftedInShowWhenReloadsAreSkipped() {
        final int[] toggled = hits(true);
        assertTrue(Arrays.stream(toggled).allMatch(v -> v >= 0), "every run records");
        assertTrue(Arrays.stream(toggled).anyMatch(v -> v == 0x40), "a hit on the shifted-in fill: " + Arrays.toString(toggled));
    }

    @Test
    void aBlankNametableAloneMakesNoHit() {
        assertTrue(Arrays.stream(hits(false)).allMatch(v -> v == 0), "no hit without skipped reloads");
    }
}
