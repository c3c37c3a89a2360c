package lockstep.nes.core.apu;

/** The pulse channels' duty sequencer (the 2A03's and the MMC5's): its waveforms and its quiet runs. */
final class DutyCycle {
    private DutyCycle() {
    }

    /** Duty waveforms, one bit per sequencer step (step 0 = bit 0). */
    private static final int[] DUTY = {0b1000_0000, 0b1100_0000, 0b1111_0000, 0b0011_1111};

    /** The waveform bit of duty {@code duty} (0-3) at step {@code pos} (0-7). */
    static int bit(int duty, int pos) {
        return (DUTY[duty] >> pos) & 1;
    }

    /**
     * The CPU cycles before the timer expiry that changes the waveform bit: the timer at
     * {@code timer}, then {@code period * 2 + 2} cycles per step, the sequencer stepping down
     * from {@code pos}.
     */
    static int cyclesToChange(int duty, int pos, int timer, int period) {
        final int bits = DUTY[duty];
        final int bit = (bits >> pos) & 1;
        int m = 1;
        while (m < 8 && ((bits >> ((pos - m) & 7)) & 1) == bit) {
            m++;
        }
        return timer + (m - 1) * (period * 2 + 2);
    }
}
