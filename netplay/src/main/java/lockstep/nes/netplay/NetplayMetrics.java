package lockstep.nes.netplay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The metrics of one netplay peer, tagged {@code session=<id>}, served by the verifier's metrics
 * server. Prometheus names: {@code netplay_rtt_seconds}, {@code netplay_input_delay_frames},
 * {@code netplay_frames_ahead} (this peer's frame minus the peer's, as last reported: the drift
 * gauge's meaning for two machines), {@code netplay_rollbacks_total},
 * {@code netplay_rollback_depth_frames} (histogram), {@code netplay_rollback_seconds},
 * {@code netplay_desyncs_total}, {@code netplay_foreign_datagrams_total}.
 */
public final class NetplayMetrics {
    private final AtomicLong rttMicros = new AtomicLong();
    private final AtomicLong delay = new AtomicLong();
    private final AtomicLong ahead = new AtomicLong();
    private final Counter rollbacks;
    private final DistributionSummary depth;
    private final Timer rollbackTime;
    private final Counter desyncs;
    private final Counter foreign;

    public NetplayMetrics(MeterRegistry registry, String session, int window) {
        Gauge.builder("netplay.rtt.seconds", rttMicros, a -> a.get() / 1e6)
                .description("round-trip time to the peer (smoothed)").tag("session", session).register(registry);
        Gauge.builder("netplay.input.delay.frames", delay, AtomicLong::get)
                .description("frames between a press and the frame it acts in").tag("session", session).register(registry);
        Gauge.builder("netplay.frames.ahead", ahead, AtomicLong::get)
                .description("this peer's frame minus the peer's last reported frame").tag("session", session)
                .register(registry);
        rollbacks = Counter.builder("netplay.rollbacks").description("rollbacks (a remote input differed from its prediction)")
                .tag("session", session).register(registry);
        double[] buckets = new double[Math.max(1, window)];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = i + 1;
        }
        depth = DistributionSummary.builder("netplay.rollback.depth").baseUnit("frames")
                .description("frames re-simulated per rollback").serviceLevelObjectives(buckets)
                .tag("session", session).register(registry);
        rollbackTime = Timer.builder("netplay.rollback").description("time to load a snapshot and re-simulate to the present")
                .tag("session", session).register(registry);
        desyncs = Counter.builder("netplay.desyncs").description("confirmed frames whose state digests differed")
                .tag("session", session).register(registry);
        foreign = Counter.builder("netplay.foreign.datagrams")
                .description("datagrams dropped: not netplay's, another session's, or from another address")
                .tag("session", session).register(registry);
    }

    void rtt(long nanos) {
        rttMicros.set(nanos / 1000);
    }

    void delay(int frames) {
        delay.set(frames);
    }

    void ahead(long frames) {
        ahead.set(frames);
    }

    void rolledBack(int frames, long nanos) {
        rollbacks.increment();
        depth.record(frames);
        rollbackTime.record(nanos, TimeUnit.NANOSECONDS);
    }

    void desync() {
        desyncs.increment();
    }

    void foreign() {
        foreign.increment();
    }
}
