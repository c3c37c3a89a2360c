package lockstep.nes.verifier;

/**
 * Watches one engine's (or engine host's) handoffs for a stall. Detection starts at its first
 * handoff: an engine still starting (a host's JVM, a thread's first compile) is not watched. The
 * threshold adapts to the pace measured so far: the configured stall time, or
 * {@link #PACE_FACTOR} times the pace, whichever is longer. The pace is a moving average of the
 * gaps between handoffs (each new gap weighs {@code 1/}{@link #PACE_WEIGHT}; gaps that were
 * themselves stalls do not count), so the slow first handoffs of a cold JIT fade out while a
 * machine that stays busy keeps it long. On a busy machine every handoff comes later and the
 * threshold grows with them; an engine that stops while it had been handing over steadily is
 * caught after the configured time. Time is passed in (nanoseconds), so the rule is tested
 * without waiting.
 */
final class StallWatch {
    /** How many times the slowest gap seen a silence must last to be a stall. */
    static final int PACE_FACTOR = 4;
    /** The moving average's weight: a new gap moves the pace by 1/8 of its difference. */
    static final int PACE_WEIGHT = 8;

    private final long baseNanos;
    private long position;
    /** When the position last moved; -1 before the first handoff. */
    private long lastMove = -1;
    /** The moving average of the gaps (nanoseconds); -1 before the first gap. */
    private long pace = -1;
    /** True while the present silence has been reported as a stall. */
    private boolean stalled;

    StallWatch(long stallMillis, long startPosition) {
        this.baseNanos = stallMillis * 1_000_000L;
        this.position = startPosition;
    }

    /**
     * The engine stands at {@code at} at time {@code now}: returns true when this ends a
     * reported stall (it resumed).
     */
    boolean observe(long at, long now) {
        if (at == position) {
            return false;
        }
        position = at;
        boolean resumed = stalled;
        if (lastMove >= 0 && !stalled) {
            long gap = now - lastMove;
            pace = pace < 0 ? gap : pace + (gap - pace) / PACE_WEIGHT;
        }
        stalled = false;
        lastMove = now;
        return resumed;
    }

    /** True the first time a silence outlasts the threshold (reported once per silence). */
    boolean newStall(long now) {
        if (stalled || lastMove < 0 || now - lastMove <= thresholdNanos()) {
            return false;
        }
        stalled = true;
        return true;
    }

    boolean stalled() {
        return stalled;
    }

    long thresholdNanos() {
        return Math.max(baseNanos, PACE_FACTOR * Math.max(0, pace));
    }

    long silentNanos(long now) {
        return lastMove < 0 ? 0 : now - lastMove;
    }

    long position() {
        return position;
    }

    boolean started() {
        return lastMove >= 0;
    }
}
