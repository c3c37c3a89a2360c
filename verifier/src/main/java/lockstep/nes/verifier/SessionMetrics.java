package lockstep.nes.verifier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The metrics of one verification session, tagged {@code session=<id>}. Prometheus names:
 * {@code lockstep_state_divergence_flag}, {@code lockstep_drift_offset_cycles},
 * {@code lockstep_drift_allowance_cycles} (the drift a mode shows by design when healthy: 0 in
 * same-thread and threads mode, the streaming window in processes mode; the alert rule fires on
 * drift more than 50 cycles beyond it),
 * {@code lockstep_cycles_total{engine}}, {@code lockstep_frames_total{engine}},
 * {@code lockstep_divergences_total}, {@code lockstep_rollbacks_total},
 * {@code lockstep_stalls_total} and {@code lockstep_stalled} (an engine or host silent past its
 * stall threshold while the other ran ahead: not a divergence, see {@link StallReport}),
 * {@code lockstep_stale_writes_rejected_total}, {@code lockstep_checkpoint_save_seconds},
 * {@code lockstep_checkpoint_restore_seconds}.
 */
public final class SessionMetrics {
    private final AtomicLong divergenceFlag = new AtomicLong();
    private final AtomicLong drift = new AtomicLong();
    private final AtomicLong driftAllowance = new AtomicLong();
    private final AtomicLong[] cycles = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong[] frames = {new AtomicLong(), new AtomicLong()};
    private final Counter divergences;
    private final Counter rollbacks;
    private final Counter stalls;
    private final AtomicLong stalled = new AtomicLong();
    private final Timer checkpointSave;
    private final Timer checkpointRestore;

    public SessionMetrics(MeterRegistry registry, String session, EpochFence fence) {
        Gauge.builder("lockstep.state.divergence.flag", divergenceFlag, AtomicLong::get)
                .description("1 while the two engines' states differ and recovery is not verified")
                .tag("session", session).register(registry);
        Gauge.builder("lockstep.drift.offset.cycles", drift, AtomicLong::get)
                .description("|cycles of engine A - cycles of engine B|")
                .tag("session", session).register(registry);
        Gauge.builder("lockstep.drift.allowance.cycles", driftAllowance, AtomicLong::get)
                .description("drift the session's mode shows by design when healthy (processes mode's streaming window)")
                .tag("session", session).register(registry);
        for (int e = 0; e < 2; e++) {
            String engine = e == 0 ? "A" : "B";
            FunctionCounter.builder("lockstep.cycles", cycles[e], AtomicLong::get)
                    .description("CPU cycles run").tags("session", session, "engine", engine).register(registry);
            FunctionCounter.builder("lockstep.frames", frames[e], AtomicLong::get)
                    .description("frames run").tags("session", session, "engine", engine).register(registry);
        }
        divergences = Counter.builder("lockstep.divergences").description("divergences detected")
                .tag("session", session).register(registry);
        rollbacks = Counter.builder("lockstep.rollbacks").description("rollbacks to a verified checkpoint")
                .tag("session", session).register(registry);
        stalls = Counter.builder("lockstep.stalls").description("stalls: an engine silent past its threshold while the "
                + "other ran ahead (not divergences)").tag("session", session).register(registry);
        Gauge.builder("lockstep.stalled", stalled, AtomicLong::get)
                .description("engines stalled now (silent past their threshold; 0 once they resume)")
                .tag("session", session).register(registry);
        FunctionCounter.builder("lockstep.stale.writes.rejected", fence, EpochFence::rejectedWrites)
                .description("writes refused because they came from an older epoch")
                .tag("session", session).register(registry);
        // Every meter has a description: Prometheus' HELP line (promtool check metrics wants one).
        checkpointSave = Timer.builder("lockstep.checkpoint.save").description("time to save a checkpoint")
                .tag("session", session).register(registry);
        checkpointRestore = Timer.builder("lockstep.checkpoint.restore")
                .description("time to restore both engines from a checkpoint").tag("session", session).register(registry);
    }

    public void setDivergence(boolean diverged) {
        divergenceFlag.set(diverged ? 1 : 0);
    }

    public boolean diverged() {
        return divergenceFlag.get() != 0;
    }

    public void setProgress(int engine, long cycleCount, long frameCount) {
        cycles[engine].set(cycleCount);
        frames[engine].set(frameCount);
    }

    public void setDrift(long cyclesApart) {
        drift.set(Math.abs(cyclesApart));
    }

    /** Sets the drift this session's mode shows by design while healthy (see the alert rule). */
    public void setDriftAllowance(long cycles) {
        driftAllowance.set(Math.max(0, cycles));
    }

    public long driftAllowance() {
        return driftAllowance.get();
    }

    public long drift() {
        return drift.get();
    }

    public void divergence() {
        divergences.increment();
    }

    /** A stall began ({@code true}: counted) or ended. */
    public void stall(boolean began) {
        if (began) {
            stalls.increment();
            stalled.incrementAndGet();
        } else {
            stalled.updateAndGet(n -> Math.max(0, n - 1));
        }
    }

    public double stallCount() {
        return stalls.count();
    }

    public void rollback() {
        rollbacks.increment();
    }

    public double rollbackCount() {
        return rollbacks.count();
    }

    public Timer checkpointSave() {
        return checkpointSave;
    }

    public Timer checkpointRestore() {
        return checkpointRestore;
    }
}
