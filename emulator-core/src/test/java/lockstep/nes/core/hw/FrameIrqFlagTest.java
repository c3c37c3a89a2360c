package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frame counter's IRQ flag around the end of the 4-step sequence, seen by cycle-timed
 * programs: each trial inhibits the counter, aligns the CPU to the APU's get/put phase (OAM
 * DMA), writes $4017 and reads $4015 a chosen number of cycles later ({@link CycleDelay}).
 *
 * <ul>
 * <li>The flag is set on three consecutive cycles; a read sees it from the first, and clears it
 * for good only when no setting cycle follows the read's clear: a second read 4 cycles after the
 * first sees it set again after a read on the cycle before the first set or on the first two.</li>
 * <li>The first set comes 3 or 4 cycles later after a $4017 write by the write's cycle: moving the
 * write one cycle at a time moves the first set by 0 and 2 cycles in turn.</li>
 * <li>While inhibited, the flag still shows in $4015 on the first two setting cycles, and /IRQ
 * stays high.</li>
 * <li>A read's clear lands as the APU turns from a put to a get cycle: one or two cycles after
 * the read by its cycle's parity. {@code INC $4015} polls /IRQ on the cycle after its read, so it
 * takes the frame IRQ (with I clear) after a read on one parity and not on the other.</li>
 * </ul>
 */
class FrameIrqFlagTest {
    private static final int WRITE_SHIFTS = 4;
    private static final int READ_OFFSETS = 17;

    /**
     * Trial (s, k): the $4017 write moved s cycles later, the first $4015 read at a time set by k
     * alone ({@link CycleDelay#LONG} + k - s + 9 cycles after the write); bit 6 of both reads
     * recorded at $0300 and $0400 + 32 s + k.
     */
    private static String readTrial(int s, int k) {
        int slot = 32 * s + k;
        return String.join("\n",
                "  lda #$40",
                "  sta $4017",
                CycleDelay.ALIGN,
                CycleDelay.pad(2 + s),
                "  lda #$00",
                "  sta $4017",
                "  jsr delay_long",
                CycleDelay.pad(2 + k + (WRITE_SHIFTS - 1 - s)),
                "  lda $4015",
                "  ldx $4015",
                "  and #$40",
                "  sta $" + Integer.toHexString(0x300 + slot),
                "  txa",
                "  and #$40",
                "  sta $" + Integer.toHexString(0x400 + slot),
                "");
    }

    private static HardwareProgram readProgram() {
        List<String> src = new ArrayList<>();
        src.add("reset:\n  sei\n  ldx #$FF\n  txs");
        for (int s = 0; s < WRITE_SHIFTS; s++) {
            for (int k = 0; k < READ_OFFSETS; k++) {
                src.add(readTrial(s, k));
            }
        }
        src.add("  jmp pass");
        src.add(CycleDelay.ROUTINE);
        HardwareProgram p = HardwareProgram.of(String.join("\n", src));
        assertEquals(HardwareProgram.PASS, p.run(120));
        return p;
    }

    /** The first read offset k of write shift s whose first read saw the flag (-1: none). */
    private static int firstSet(HardwareProgram p, int s) {
        for (int k = 0; k < READ_OFFSETS; k++) {
            if (p.ram(0x300 + 32 * s + k) != 0) {
                return k;
            }
        }
        return -1;
    }

    @Test
    void aReadClearsTheFlagForGoodOnlyAfterTheSecondSettingCycle() {
        HardwareProgram p = readProgram();
        for (int s = 0; s < WRITE_SHIFTS; s++) {
            StringBuilder pattern = new StringBuilder();
            for (int k = 0; k < READ_OFFSETS; k++) {
                pattern.append(p.ram(0x300 + 32 * s + k) != 0 ? '1' : '0')
                        .append(p.ram(0x400 + 32 * s + k) != 0 ? '1' : '0').append(' ');
            }
            int f = firstSet(p, s);
            assertTrue(f >= 5 && f <= READ_OFFSETS - 5, "the sweep covers the setting cycles: " + pattern);
            for (int k = 0; k < READ_OFFSETS; k++) {
                int first = p.ram(0x300 + 32 * s + k);
                int second = p.ram(0x400 + 32 * s + k);
                int expectFirst = k >= f ? 0x40 : 0;
                // Set again after the read: the read came before the first set (the second read
                // is 4 cycles later, past it) or on one of the first two setting cycles.
                int expectSecond = k >= f - 4 && k <= f + 1 ? 0x40 : 0;
                assertEquals(expectFirst, first, "first read, offset " + k + ": " + pattern);
                assertEquals(expectSecond, second, "second read, offset " + k + ": " + pattern);
            }
        }
    }

    @Test
    void a4017WriteTakesEffectOnTheSameApuPhaseWhateverItsCycle() {
        HardwareProgram p = readProgram();
        int[] f = new int[WRITE_SHIFTS];
        for (int s = 0; s < WRITE_SHIFTS; s++) {
            f[s] = firstSet(p, s);
        }
        // The write moves one cycle later each time; the first set moves 0 or 2 cycles, in turn.
        int d0 = f[1] - f[0];
        int d1 = f[2] - f[1];
        int d2 = f[3] - f[2];
        String fs = f[0] + " " + f[1] + " " + f[2] + " " + f[3];
        assertTrue((d0 == 0 && d1 == 2 && d2 == 0) || (d0 == 2 && d1 == 0 && d2 == 2), fs);
    }

    @Test
    void anInhibitedCounterShowsTheFlagOnTwoCyclesAndNeverPullsIrq() {
        List<String> src = new ArrayList<>();
        src.add("reset:\n  sei\n  ldx #$FF\n  txs\n  lda #0\n  sta $20\n  cli");
        for (int k = 0; k < READ_OFFSETS; k++) {
            src.add(String.join("\n",
                    "  lda #$40",
                    "  sta $4017",
                    CycleDelay.ALIGN,
                    "  lda #$40",
                    "  sta $4017",
                    "  jsr delay_long",
                    CycleDelay.pad(2 + k),
                    "  lda $4015",
                    "  and #$40",
                    "  sta $" + Integer.toHexString(0x300 + k),
                    ""));
        }
        src.add("  sei\n  jmp pass");
        src.add("irq:\n  inc $20\n  rti");
        src.add(CycleDelay.ROUTINE);
        HardwareProgram p = HardwareProgram.of(String.join("\n", src));
        assertEquals(HardwareProgram.PASS, p.run(40));
        StringBuilder seen = new StringBuilder();
        int count = 0;
        int first = -1;
        for (int k = 0; k < READ_OFFSETS; k++) {
            boolean set = p.ram(0x300 + k) != 0;
            seen.append(set ? '1' : '0');
            if (set) {
                count++;
                if (first < 0) {
                    first = k;
                }
            }
        }
        assertEquals(2, count, "reads seeing the flag while inhibited: " + seen);
        assertTrue(p.ram(0x300 + first + 1) != 0, "on two consecutive cycles: " + seen);
        assertEquals(0, p.ram(0x20), "IRQs taken while inhibited");
    }

    @Test
    void aReadsClearWaitsForTheNextPutToGetTransition() {
        List<String> src = new ArrayList<>();
        src.add("reset:\n  sei\n  ldx #$FF\n  txs\n  lda #0\n  sta $20");
        for (int t = 0; t < 2; t++) {
            src.add(String.join("\n",
                    "  lda #$40",
                    "  sta $4017",
                    CycleDelay.ALIGN,
                    "  lda #$00",
                    "  sta $4017",
                    "  jsr delay_long", // the flag is set, and its three setting cycles are over
                    CycleDelay.pad(12 + t),
                    "  cli",
                    "  inc $4015", // reads $4015, then polls /IRQ on the next cycle
                    "  sei",
                    "  lda $20",
                    "  sta $" + Integer.toHexString(0x30 + t),
                    "  lda #0",
                    "  sta $20",
                    ""));
        }
        src.add("  jmp pass");
        src.add("irq:\n  inc $20\n  rti");
        src.add(CycleDelay.ROUTINE);
        HardwareProgram p = HardwareProgram.of(String.join("\n", src));
        assertEquals(HardwareProgram.PASS, p.run(10));
        int a = p.ram(0x30);
        int b = p.ram(0x31);
        assertEquals(1, a + b, "exactly one of two reads a cycle apart leaves /IRQ low on the next cycle: " + a + " " + b);
    }
}
