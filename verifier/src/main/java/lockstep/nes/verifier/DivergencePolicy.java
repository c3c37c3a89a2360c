package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.List;

/**
 * What happens after a divergence, written once for every mode: the flag goes up (input stops,
 * outputs go to the dead letters), the report is printed and kept, the mode's dead letters are
 * written, then by {@link Lockstep.Rollback policy} the run ends, or waits for the alert webhook
 * to order the rollback, or waits an exponential backoff with full jitter (seeded); the mode
 * then rolls back and {@link #rolledBack} counts it, lowers the flag and releases the webhook.
 * Each mode keeps only what is its own: how it finds and reports a divergence, what it writes to
 * the dead letters, how it restores its engines.
 */
final class DivergencePolicy {
    /** What a mode writes to the dead letters for one divergence. */
    interface DeadLetters {
        void write(DeadLetter to, long epoch);
    }

    private final Lockstep.Options options;
    private final SessionMetrics metrics;
    private final EpochFence fence;
    private final Backoff backoff;
    private final Lockstep.AlertGate gate = new Lockstep.AlertGate();
    private final List<DivergenceReport> divergences = new ArrayList<>();
    private final List<StallReport> stalls = new ArrayList<>();
    private int rollbacks;

    DivergencePolicy(Lockstep.Options options, SessionMetrics metrics, EpochFence fence) {
        this.options = options;
        this.metrics = metrics;
        this.fence = fence;
        this.backoff = new Backoff(options.backoffBaseMillis, options.backoffCapMillis, options.backoffSeed);
    }

    /** The divergence flag goes up (first, so that the webhook may order the rollback). */
    void raise() {
        if (options.rollback == Lockstep.Rollback.ON_ALERT) {
            gate.beginHalt();
        }
        metrics.setDivergence(true);
        metrics.divergence();
    }

    /**
     * Reports {@code r} ({@link #raise raised} before), writes the mode's dead letters, then
     * waits as the policy says. Returns null when the mode is to roll back now, or the reason the
     * run stops ({@code kind}: what was found, as the stop reason names it).
     */
    String decide(DivergenceReport r, String kind, DeadLetters deadLetters) throws InterruptedException {
        report(r, deadLetters);
        if (options.rollback == Lockstep.Rollback.OFF) {
            return kind + " (rollback off)";
        }
        if (rollbacks >= options.maxRollbacks) {
            return "too many rollbacks";
        }
        if (options.rollback == Lockstep.Rollback.ON_ALERT) {
            if (!gate.await(options.alertWaitMillis)) {
                return kind + ": no rollback ordered within " + options.alertWaitMillis + " ms";
            }
        } else {
            long delay = backoff.nextDelayMillis();
            if (options.progress != null) {
                options.progress.printf("rollback: restarting in %d ms (attempt %d, full jitter)%n", delay,
                        backoff.attempts());
            }
            Thread.sleep(delay);
        }
        return null;
    }

    /** Keeps, prints and dead-letters {@code r} (a failure the run ends on, or a divergence). */
    void report(DivergenceReport r, DeadLetters deadLetters) {
        divergences.add(r);
        if (options.progress != null) {
            options.endProgress();
            options.progress.print(r.toText());
        }
        if (options.deadLetter != null) {
            deadLetters.write(options.deadLetter, fence.current());
        }
    }

    /**
     * A stall: counted ({@code lockstep_stalls_total}), the stalled gauge raised, printed and
     * kept. Not a divergence: the flag stays down and nothing is rolled back.
     */
    synchronized void stall(StallReport r) {
        stalls.add(r);
        metrics.stall(true);
        if (options.progress != null) {
            options.endProgress();
            options.progress.print(r.toText());
        }
    }

    /** The engine of stall {@code r} handed over again: the report says so and the gauge drops. */
    synchronized void stallEnded(StallReport r) {
        int i = stalls.lastIndexOf(r);
        if (i >= 0) {
            stalls.set(i, r.asResumed());
        }
        metrics.stall(false);
        if (options.progress != null) {
            options.endProgress();
            options.progress.println("verify: " + r.who() + " resumed after its stall at cycle " + r.afterCycle());
        }
    }

    /** Keeps {@code r} in the result (a difference found as the run ends: nothing to roll back). */
    void record(DivergenceReport r) {
        divergences.add(r);
    }

    /**
     * The mode restored its engines to {@code cp} in the epoch now current: counted, the flag
     * lowered, the webhook released. {@code line}: the progress line, with {@code %s} for where
     * the checkpoint is and {@code %d} for the epoch.
     */
    void rolledBack(CheckpointRing.Checkpoint cp, String line) {
        rollbacks++;
        metrics.rollback();
        metrics.setDivergence(false);
        if (options.progress != null) {
            options.progress.printf("rollback: " + line + "%n", CheckpointRing.where(cp.frame(), cp.cycle()),
                    fence.current());
        }
        gate.rolledBack("rolled back to frame " + cp.frame() + ", epoch " + fence.current());
    }

    /** The run's result so far. */
    Lockstep.Result result(long frames, long verified, String finalHash, boolean completed, String stopReason) {
        List<StallReport> stallsSoFar;
        synchronized (this) {
            stallsSoFar = List.copyOf(stalls);
        }
        return new Lockstep.Result(frames, verified, finalHash, List.copyOf(divergences), rollbacks, completed,
                stopReason, stallsSoFar);
    }

    /** Called by the webhook: orders the rollback of a session halted on a divergence and waits for it. */
    AlertWebhook.Outcome order() {
        return gate.order(options.session);
    }
}
