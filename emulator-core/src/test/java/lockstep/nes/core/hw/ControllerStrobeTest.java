package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;

/**
 * $4016 writes reach the controllers only as a get cycle turns into a put cycle. {@code ASL $4016}
 * reads A (pressed: $41), writes $41 back and then $82 on the next cycle: the strobe pulse lasts
 * one cycle, and reloads the controller only when it was written on a get cycle. The program runs
 * the pulse three times, each shifted by 2 or 3 cycles from the one before, so that both parities
 * occur, and records after each whether the next read gives A again (reloaded) or B.
 */
class ControllerStrobeTest {
    private static String trial(int k, String pad) {
        return String.join("\n",
                "  lda #1",
                "  sta $4016",
                "  lda #0",
                "  sta $4016",
                pad,
                "  asl $4016",
                "  lda $4016",
                "  and #1",
                "  sta $" + Integer.toHexString(0x30 + k),
                "");
    }

    @Test
    void aOneCycleStrobePulseReloadsOnlyWhenWrittenOnAGetCycle() {
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                trial(0, ""),
                trial(1, "  nop"),
                trial(2, "  bit $FE"),
                "  lda $30",
                "  clc",
                "  adc $31",
                "  adc $32",
                "  beq none",
                "  cmp #3",
                "  beq all",
                "  jmp pass",
                "none:",
                "  lda #2",
                "  jmp fail_a",
                "all:",
                "  lda #3", // every pulse reloaded: the strobe is not tied to get/put cycles
                "  jmp fail_a"));
        p.console().setButtons(0, Controllers.A);
        assertEquals(HardwareProgram.PASS, p.run(5));
    }

    @Test
    void aStrobeHeldOverAGetCycleReloads() {
        // LDA #1 / STA $4016 / STA $4016 twice in a row holds the strobe for 4+ cycles: always reloads.
        HardwareProgram p = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "  lda #1",
                "  sta $4016",
                "  lda #0",
                "  sta $4016",
                "  lda $4016",
                "  lda #1",
                "  sta $4016",
                "  lda #0",
                "  sta $4016",
                "  lda $4016",
                "  and #1",
                "  beq bad",
                "  jmp pass",
                "bad:",
                "  lda #2",
                "  jmp fail_a"));
        p.console().setButtons(0, Controllers.A);
        assertEquals(HardwareProgram.PASS, p.run(5));
    }

    /**
     * An OAM DMA ends on a put cycle, so the instruction after {@code STA $4014} starts on a get
     * cycle. {@code ASL $4016} runs get (opcode), put, get, put (read), get (write $41), put
     * (write $82): its $41 lands on a get cycle and strobes the controller. Two cycles of
     * padding keep that parity, three flip it, and then the $82 replaces the $41 in the latch
     * before the pin can copy it.
     */
    @Test
    void afterAnOamDmaTheStrobeOfAReadModifyWriteFollowsTheGetPutPhase() {
        String[] pads = {"", "  nop", "  bit $FE", "  nop\n  nop", "  nop\n  bit $FE", "  bit $FE\n  bit $FE"};
        int[] expected = {1, 1, 0, 1, 0, 1};
        StringBuilder src = new StringBuilder("reset:\n  sei\n");
        for (int k = 0; k < pads.length; k++) {
            src.append(String.join("\n",
                    "  lda #1",
                    "  sta $4016",
                    "  lda #0",
                    "  sta $4016",
                    "  lda #2",
                    "  sta $4014",
                    pads[k],
                    "  asl $4016",
                    "  lda $4016",
                    "  and #1",
                    "  sta $" + Integer.toHexString(0x30 + k),
                    ""));
        }
        src.append("  jmp pass\n");
        HardwareProgram p = HardwareProgram.of(src.toString());
        p.console().setButtons(0, Controllers.A);
        assertEquals(HardwareProgram.PASS, p.run(5));
        int[] seen = new int[pads.length];
        for (int k = 0; k < pads.length; k++) {
            seen[k] = p.ram(0x30 + k);
        }
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(seen),
                "1: the pulse reloaded the controller (A again), 0: it never reached the pin (B)");
    }
}
