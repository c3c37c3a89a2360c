package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;

/**
 * A DMC fetch halting the CPU on a read of an APU or controller register: the halt cycle reads
 * the register as the CPU would, with its side effects, before the fetch. The trials land the
 * fetch on every cycle of the instruction ({@link DmcSweep}); the sample byte is $FF (the ROM's
 * fill at $C000).
 */
class DmcHaltRereadTest {
    /**
     * Runs one trial per {@link DmcSweep#triggers} trigger: {@code before}, the trigger, then
     * {@code read}, whose A goes to $0300 + the trial's index; returns those bytes.
     */
    private static int[] sweep(String before, String read, int controllerButtons) {
        List<String> triggers = DmcSweep.triggers();
        List<String> src = new ArrayList<>();
        src.add("reset:\n  sei\n  ldx #$FF\n  txs");
        src.add(DmcSweep.SETUP);
        for (int i = 0; i < triggers.size(); i++) {
            src.add(String.join("\n", before, "  lda #$10", triggers.get(i), read,
                    "  sta $" + Integer.toHexString(0x300 + i), DmcSweep.drain("t" + i)));
        }
        src.add("  jmp pass");
        src.add(CycleDelay.ROUTINE);
        HardwareProgram p = HardwareProgram.of(String.join("\n", src));
        p.console().setButtons(0, controllerButtons);
        assertEquals(HardwareProgram.PASS, p.run(30));
        int[] out = new int[triggers.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = p.ram(0x300 + i);
        }
        return out;
    }

    private static String hex(int[] values) {
        StringBuilder out = new StringBuilder();
        for (int v : values) {
            out.append(String.format("%02X ", v));
        }
        return out.toString();
    }

    /**
     * {@code LDA $4016} halted: the halt cycle's read clocks the controller, the CPU's own read
     * after the fetch clocks it again and returns the second button (B, released: 0), its undriven
     * bits 5-7 from the last value on the external bus, the fetched $FF. Unhalted, the read
     * returns A (pressed) with bits 5-7 of the operand's high byte $40.
     */
    @Test
    void aFetchHaltingAControllerReadClocksTheControllerAndLeavesItsByteOnTheOpenBits() {
        int[] reads = sweep("  lda #1\n  sta $4016\n  lda #0\n  sta $4016", "  lda $4016", Controllers.A);
        int halted = 0;
        for (int i = 0; i < reads.length; i++) {
            assertTrue(reads[i] == 0x41 || reads[i] == 0xE0, "trial " + i + ": " + hex(reads));
            if (reads[i] == 0xE0) {
                halted++;
            }
        }
        assertTrue(halted > 0 && halted < reads.length, "some trials halt the read, others not: " + hex(reads));
    }

    /**
     * {@code LDA $4015} halted: the halt cycle's read clears the frame IRQ flag (set before each
     * trial), so the CPU's own read after the fetch finds it clear; unhalted, the read finds it
     * set.
     */
    @Test
    void aFetchHaltingAStatusReadClearsTheFrameIrqFlagFirst() {
        // Each trial first lets the flag be set and its setting cycles pass.
        int[] reads = sweep("  lda #$00\n  sta $4017\n  jsr delay_long\n" + CycleDelay.pad(24), "  lda $4015", 0);
        int cleared = 0;
        for (int v : reads) {
            if ((v & 0x40) == 0) {
                cleared++;
            }
        }
        assertTrue(cleared > 0 && cleared < reads.length, "halted reads find the flag clear, the others set: " + hex(reads));
    }
}
