package lockstep.nes.farm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import lockstep.nes.farm.store.Store;

/**
 * The farm's meters. Lease meters (leases held, renewals, renewals failed, kill-switch firings)
 * are registered by {@link lockstep.nes.farm.lock.LeaseKeeper} in the same registry; here:
 * {@code farm_commits_stale_total} (fenced writes rejected), {@code farm_jobs_committed_total},
 * {@code farm_jobs_failed_total}, {@code farm_jobs_cancelled_total}, {@code farm_jobs_dead_total},
 * and the gauge {@code farm_jobs{state}} (jobs by state, as last read from the store).
 */
public final class FarmMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter stale;
    private final Counter committed;
    private final Counter failed;
    private final Counter cancelled;
    private final Counter dead;
    private final Map<String, AtomicInteger> byState = new ConcurrentHashMap<>();

    public FarmMetrics() {
        stale = Counter.builder("farm.commits.stale").description("fenced writes rejected: a newer token held the job")
                .register(registry);
        committed = Counter.builder("farm.jobs.committed").description("results committed").register(registry);
        failed = Counter.builder("farm.jobs.failed").description("attempts that failed (retried or dead-lettered)")
                .register(registry);
        cancelled = Counter.builder("farm.jobs.cancelled").description("attempts stopped by the kill switch")
                .register(registry);
        dead = Counter.builder("farm.jobs.dead").description("jobs moved to the dead-letter table").register(registry);
        for (String s : List.of(Store.QUEUED, Store.RUNNING, Store.DONE, Store.DEAD)) {
            AtomicInteger v = new AtomicInteger();
            byState.put(s, v);
            Gauge.builder("farm.jobs", v, AtomicInteger::get).tag("state", s).description("jobs by state")
                    .register(registry);
        }
    }

    public MeterRegistry registry() {
        return registry;
    }

    public PrometheusMeterRegistry prometheus() {
        return registry;
    }

    public void staleCommit() {
        stale.increment();
    }

    public double staleCommits() {
        return stale.count();
    }

    public void committed() {
        committed.increment();
    }

    public void failed() {
        failed.increment();
    }

    public void cancelled() {
        cancelled.increment();
    }

    public void dead() {
        dead.increment();
    }

    /** Refreshes the jobs-by-state gauge from the store's counts. */
    public void jobStates(Map<String, Integer> counts) {
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            AtomicInteger v = byState.get(e.getKey());
            if (v != null) {
                v.set(e.getValue());
            }
        }
    }
}
