package lockstep.nes.core.apu;

/**
 * Many CPU cycles of a channel timer at once: a down-counter that, on a cycle where it is 0,
 * reloads instead of counting and clocks its unit (an "expiry"), so expiries come every
 * {@code cyclesPerExpiry} cycles. Shared by the channels' bulk catch-up ({@code skip}).
 */
final class TimerSkip {
    private TimerSkip() {
    }

    /**
     * Runs the timer at {@code timer} for {@code n} cycles: the number of expiries in the high
     * 32 bits, the timer afterwards in the low 32 (no allocation on the catch-up path).
     */
    static long run(int timer, int cyclesPerExpiry, int n) {
        if (n <= timer) {
            return timer - n;
        }
        final int r = n - timer - 1;
        if (r < cyclesPerExpiry) {
            // One expiry (the common case: spans are mostly shorter than a period), no division.
            return (1L << 32) | (cyclesPerExpiry - 1 - r);
        }
        return ((long) (1 + r / cyclesPerExpiry) << 32) | (cyclesPerExpiry - 1 - r % cyclesPerExpiry);
    }

    /** The expiries of a {@link #run} result. */
    static int expiries(long run) {
        return (int) (run >>> 32);
    }
}
