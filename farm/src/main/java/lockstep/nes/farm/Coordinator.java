package lockstep.nes.farm;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import io.micrometer.core.instrument.Counter;
import lockstep.nes.farm.lock.LeaderElection;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.store.Store;

/**
 * The farm's coordinator: one leader at a time, chosen by a {@link LeaderElection} on the key
 * {@value #KEY} (on etcd, through its election API; elsewhere, the lock on that key). Each period the leader requeues running jobs whose lease expired and, once no
 * run's jobs have all finished, marks that run finished. Having won the lock, the leader begins a term in
 * the store ({@link Store#beginTerm}: the store's counter, never the lock server's token, which
 * a lock server restarted empty would repeat); every write carries that term and the store
 * applies it only while it is still the current term, so a leader that paused and was
 * succeeded cannot write when it wakes up, and no two leaders ever write under one term.
 */
public final class Coordinator {
    public static final String KEY = "farm:coordinator";

    /** Settings. */
    public static final class Options {
        public Duration ttl = Duration.ofSeconds(15);
        public Duration safetyMargin;
        public Duration period = Duration.ofSeconds(2);
        public String owner = Worker.defaultOwner();
        /** Test hook: sleep this long between the leadership check and the write. */
        public long pauseBeforeWriteMillis;
        /** Stop after this many periods (0 = run until stopped). */
        public int periods;
    }

    private final Store store;
    private final LockManager locks;
    private final Options options;
    private final FarmMetrics metrics;
    private final PrintStream log;
    private final Counter rejected;
    private volatile boolean stopped;
    /** Set when the election is won: the next tick begins a new store term. */
    /** The store term this leader writes under, 0 when it has none. */
    private long term;

    public Coordinator(Store store, LockManager locks, Options options, FarmMetrics metrics, PrintStream log) {
        this.store = store;
        this.locks = locks;
        this.options = options;
        this.metrics = metrics;
        this.log = log;
        this.rejected = Counter.builder("farm.coordinator.writes.rejected")
                .description("coordinator writes rejected because a newer term wrote").register(metrics.registry());
    }

    public void stop() {
        stopped = true;
    }

    private volatile String refusal;

    /** The lock server's refusal of the credentials that stopped this coordinator, or null. */
    public String refusal() {
        return refusal;
    }

    public void run() throws InterruptedException {
        Duration margin = options.safetyMargin != null ? options.safetyMargin : options.ttl.dividedBy(5);
        try (LeaderElection election = LeaderElection.start(locks, KEY, options.owner, options.ttl, margin,
                metrics.registry(), new LeaderElection.Listener() {
                    @Override
                    public void elected(long lockToken) {
                        log("won the lock (lock token " + lockToken + ")");
                    }

                    @Override
                    public void revoked(long lockToken, String reason) {
                        log("no longer leader (lock token " + lockToken + ": " + reason + ")");
                    }
                })) {
            log("started, campaigning for " + KEY);
            int n = 0;
            String seen = null;
            String error = null;
            while (!stopped && (options.periods == 0 || n++ < options.periods)) {
                if (election.refusal() != null) {
                    // its password was changed under it: no campaign can succeed
                    refusal = election.refusal();
                    log("stopping: " + refusal);
                    break;
                }
                if (election.isLeader()) {
                    tick();
                } else {
                    term = 0;
                    String leader = election.observedLeader();
                    if (leader != null && !leader.equals(seen)) {
                        log("following " + leader);
                    }
                    seen = leader;
                    // why the campaign is not getting anywhere (credentials refused, server gone), once per change
                    String e = election.lastError();
                    if (e != null && !e.equals(error)) {
                        log("cannot campaign: " + e);
                    }
                    error = e;
                }
                Thread.sleep(options.period.toMillis());
            }
        }
    }

    private void tick() throws InterruptedException {
        // One term per win: a term is begun only when this leader has none (a loss of the lock, or
        // a refused write, resets it). Beginning one on the election's callback too would begin two
        // terms for one win whenever the loop sees the lock before the callback runs.
        if (term == 0) {
            try {
                term = store.coordinator().beginTerm(options.owner);
                log("elected leader, term " + term);
            } catch (SQLException e) {
                term = 0;
                log("store unavailable: " + e.getMessage());
                return;
            }
        }
        if (options.pauseBeforeWriteMillis > 0) {
            log("writing with term " + term + " after a pause of " + options.pauseBeforeWriteMillis + " ms");
            Thread.sleep(options.pauseBeforeWriteMillis);
        }
        try {
            String r = store.coordinator().requeueExpired(term, options.owner);
            if (r == null) {
                rejected();
                return;
            }
            log("term " + term + ": requeued " + r);
            for (String run : store.coordinator().finishedUnmarkedRuns()) {
                String m = store.coordinator().markNightlyRun(term, options.owner, run);
                if (m == null) {
                    rejected();
                    break;
                }
                log("term " + term + ": " + m);
            }
            metrics.jobStates(store.countsByStatus());
        } catch (SQLException e) {
            log("store unavailable: " + e.getMessage());
        }
    }

    /** A newer term began: this one writes no more; a new term is begun while the lock is still held. */
    private void rejected() {
        rejected.increment();
        log("write REJECTED: term " + term + " is stale (a newer coordinator term began)");
        term = 0;
    }

    private void log(String line) {
        if (log != null) {
            synchronized (log) {
                log.println("coordinator " + options.owner + ": " + line);
                log.flush();
            }
        } else {
            JobLog.COORDINATOR.info("coordinator {}: {}", options.owner, line);
        }
    }
}
