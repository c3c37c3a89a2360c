package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A $2004 read on a rendering line after sprite evaluation has seen all 64 sprites: odd dots go
 * on reading primary OAM as the sprite index steps, while on even dots the writes to secondary
 * OAM have become reads, and the OAM data latch takes secondary OAM's byte at the current slot.
 * Sprites 0 and 5 are in range on line $50 and the other sprites' Ys are $C0 + index, so the
 * evaluation of line $50 has seen them all by dot 205 and its current slot is slot 2, whose byte
 * 0 holds the last Y written there (sprite 63's, $FF); the odd dots read Ys below $E0. The
 * program reads $2004 once on line $50, {@code n} cycles later per run, over the sync phases (every
 * dot of dots ~210-250), and records the byte.
 */
class OamDataReadAfterEvaluationTest {
    static final int FROM = 0;
    static final int TO = 20;

    static String program(int phase, int n) {
        return String.join("\n",
                setUp(0),
                "  lda #0",
                "  sta $2003",
                "  ldx #0",
                "oam_fill:",
                "  txa",
                "  clc",
                "  adc #$C0",
                "  sta $2004", // Y = $C0 + index
                "  lda #0",
                "  sta $2004",
                "  sta $2004",
                "  sta $2004",
                "  inx",
                "  cpx #64",
                "  bne oam_fill",
                "  lda #0",
                "  sta $2003",
                "  lda #$4F", // sprite 0: in range on line $50
                "  sta $2004",
                "  lda #20",
                "  sta $2003",
                "  lda #$4E", // sprite 5
                "  sta $2004",
                syncPhase(phase),
                startRendering(0x18),
                "  jsr wait_vblank",
                longDelay("late", 11530),
                delay(2 + n),
                "  lda $2004",
                "  sta $10",
                "  jmp pass");
    }

    /** A Y the odd dots read after the wrap: sprite 5's, or $C0 + index for the first sprites. */
    private static boolean primaryY(int v) {
        return v == 0x4E || (v >= 0xC1 && v <= 0xDF);
    }

    @Test
    void evenDotsAfterTheWrapReadSecondaryOam() {
        final int runs = TO - FROM + 1;
        final int[] bytes = sweepPhases(FROM, TO, 16, 0x10, (phase, n) -> HardwareProgram.of(program(phase, n)));
        for (int phase = 0; phase < PHASES; phase++) {
            final int[] reads = Arrays.copyOfRange(bytes, phase * runs, (phase + 1) * runs);
            int first = -1;
            int last = -1;
            // The stretch after the wrap ends where the sprite fetches (dot 257) put slot 0's bytes
            // on the bus.
            for (int i = 0; i < runs; i++) {
                if (primaryY(reads[i])) {
                    last = i;
                    if (first < 0) {
                        first = i;
                    }
                } else if (first >= 0 && reads[i] != 0xFF) {
                    break;
                }
            }
            final String where = "phase " + phase + ": " + Arrays.toString(reads);
            assertTrue(first >= 0 && last - first >= 10, "reads after the wrap: " + where);
            // Each CPU cycle is 3 dots: consecutive runs alternate odd and even dots.
            for (int i = first; i <= last; i++) {
                if (((i - first) & 1) == 0) {
                    assertTrue(primaryY(reads[i]), "run " + i + " (odd dot): " + where);
                } else {
                    assertEquals(0xFF, reads[i], "run " + i + " (even dot): secondary OAM slot 2: " + where);
                }
            }
        }
    }
}
