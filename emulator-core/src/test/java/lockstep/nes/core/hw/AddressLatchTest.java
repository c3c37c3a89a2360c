package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The PPU's address bus: a fetch latches its address's low byte on its first dot (ALE) and
 * reads on the second with A8-A13 driven live. A $2006 address that lands in v between the two
 * makes a nametable fetch read from A8-A13 of the new address and the low byte of the old one.
 * On line 16 (row 2 of $2000, all blank) the program writes $2006 = $2580 (row 12 of $2400,
 * blank): only a hybrid fetch reads row 10 of $2400 (solid tiles), and only its tile can make
 * a hit with sprite 0 on that line. The write moves {@code n} cycles per run, over the sync
 * phases, so it lands on every dot of a stretch; some land on a nametable fetch's ALE dot with
 * the solid tile under sprite 0.
 */
class AddressLatchTest {
    static String program(int phase, int n) {
        return String.join("\n",
                setUp(0),
                "  lda #$25", // row 10 of $2400: solid tiles
                "  sta $2006",
                "  lda #$40",
                "  sta $2006",
                "  lda #1",
                "  ldx #32",
                "row:",
                "  sta $2007",
                "  dex",
                "  bne row",
                sprite0(15, 1, 80), // line 16, x 80-87
                syncPhase(phase),
                startRendering(0x1E),
                "  jsr wait_vblank",
                "  lda #$25",
                "  ldx #$80",
                longDelay("late", 4190),
                delay(2 + n),
                "  sta $2006",
                "  stx $2006",
                "  jsr wait_vblank",
                "  lda $2002",
                "  and #$40",
                "  sta $10",
                "  jmp pass");
    }

    @Test
    void aNametableFetchReadsAHybridAddress() {
        final int[] all = sweepPhases(0, 30, 16, 0x10, (phase, n) -> HardwareProgram.of(program(phase, n), solidTile1()));
        assertTrue(Arrays.stream(all).allMatch(v -> v >= 0), "every run records");
        assertTrue(Arrays.stream(all).anyMatch(v -> v == 0x40), "a hit on the hybrid tile: " + Arrays.toString(all));
    }
}
