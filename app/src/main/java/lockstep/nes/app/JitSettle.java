package lockstep.nes.app;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * When a benchmark's untimed passes have warmed the JIT enough to time: after a pass in which
 * the JIT compilers worked for at most {@link #QUIET_SHARE} of the pass's wall time. A pass
 * replays exactly the frames a timed pass runs, so once one is quiet the compiled code has seen
 * every branch the timed passes take and nothing is left to recompile while they are timed.
 * Bounded by a number of passes and by time, for runs too slow or too short to settle.
 */
final class JitSettle {
    /** The JIT's share of a pass's wall time below which the pass counts as quiet. */
    static final double QUIET_SHARE = 0.01;
    /** No further untimed pass starts once this much wall time went to them. */
    static final long MAX_NANOS = 15_000_000_000L;

    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final int maxPasses;
    private int passes;
    private long nanos;
    private boolean quiet;
    private long passStartNanos;
    private long passStartJitMillis;

    JitSettle(int maxPasses) {
        this.maxPasses = maxPasses;
    }

    /** False where the JVM does not time its compilers (then no pass is run to settle them). */
    boolean measurable() {
        return jit != null && jit.isCompilationTimeMonitoringSupported();
    }

    /** True when another untimed pass should run. */
    boolean another() {
        return measurable() && !quiet && passes < maxPasses && nanos < MAX_NANOS;
    }

    void startPass() {
        passStartJitMillis = jit.getTotalCompilationTime();
        passStartNanos = System.nanoTime();
    }

    /** Ends a pass; returns the milliseconds the JIT worked during it. */
    long endPass() {
        long wall = System.nanoTime() - passStartNanos;
        long jitMillis = jit.getTotalCompilationTime() - passStartJitMillis;
        passes++;
        nanos += wall;
        quiet = quiet(jitMillis, wall);
        return jitMillis;
    }

    /** A pass of {@code wallNanos} in which the compilers worked {@code jitMillis} is quiet. */
    static boolean quiet(long jitMillis, long wallNanos) {
        return jitMillis * 1_000_000.0 <= QUIET_SHARE * wallNanos;
    }

    int passes() {
        return passes;
    }

    double seconds() {
        return nanos / 1e9;
    }

    boolean settled() {
        return quiet;
    }
}
