package lockstep.nes.desktop;

/**
 * Dynamic rate control: the emulator's samples are resampled (linear interpolation) by a ratio
 * within ±0.5% of 1, chosen from how full the sound card's queue is, so the queue stays near its
 * target instead of slowly running dry or overflowing when the sound card's clock and the
 * emulated clock disagree. 0.5% is below what the ear hears as a pitch change.
 */
final class RateControl {
    static final double MAX_DELTA = 0.005;

    /** The last input sample of the previous block. */
    private int prev;
    /** Where the next output sample lies, in input samples after {@code prev}. */
    private double next = 1.0;

    /** Output samples per input sample for a queue holding {@code fill} of {@code target} samples. */
    static double ratio(int fill, int target) {
        double r = 1.0 + MAX_DELTA * (target - fill) / (double) target;
        return Math.max(1.0 - MAX_DELTA, Math.min(1.0 + MAX_DELTA, r));
    }

    /**
     * Resamples {@code in[0, n)} by {@code ratio} into {@code out} (which must hold
     * {@code n * 1.01 + 2} samples); returns how many samples it wrote.
     */
    int process(short[] in, int n, double ratio, short[] out) {
        double step = 1.0 / ratio;
        double pos = next;
        int k = 0;
        // pos is measured from prev (position 0); input sample i sits at position i + 1.
        while (pos <= n) {
            int i = (int) pos;
            double frac = pos - i;
            int a = i == 0 ? prev : in[i - 1];
            int b = i < n ? in[i] : a;
            out[k++] = (short) Math.round(a + (b - a) * frac);
            pos += step;
        }
        if (n > 0) {
            prev = in[n - 1];
        }
        next = pos - n;
        return k;
    }
}
