package lockstep.nes.farm;

import java.io.PrintStream;
import java.net.InetAddress;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import lockstep.nes.farm.job.JobContext;
import lockstep.nes.farm.job.JobFailure;
import lockstep.nes.farm.job.JobResult;
import lockstep.nes.farm.job.JobRunner;
import lockstep.nes.farm.job.JobUnrunnable;
import lockstep.nes.farm.job.StaleTokenException;
import lockstep.nes.farm.lock.KillSwitch;
import lockstep.nes.farm.lock.KilledException;
import lockstep.nes.farm.lock.Lease;
import lockstep.nes.farm.lock.LeaseKeeper;
import lockstep.nes.farm.lock.LockException;
import lockstep.nes.farm.lock.LockRefusedException;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.store.Store;
import lockstep.nes.verifier.Backoff;

/**
 * A farm worker: claims a job under a lease (with a static partition, only the partition's jobs,
 * still each under its lease, so two workers given the same partition share it safely), keeps
 * the lease alive with a {@link LeaseKeeper} whose kill switch stops the job at its next frame
 * boundary, and commits the result with the lease's fencing token. A commit the store rejects
 * (0 rows: a newer token took the job over) is logged and counted as a stale commit, never as a
 * success. A failed attempt is queued again after an exponential backoff with full jitter, and
 * after {@link Options#maxAttempts} attempts it goes to the dead-letter table; so does a job
 * claimed that many times without an outcome (it kills its worker, or keeps losing its lease).
 */
public final class Worker {
    /** Settings. */
    public static final class Options {
        public Duration ttl = Duration.ofSeconds(15);
        /** How long before the lease's local deadline the job must have stopped. */
        public Duration safetyMargin;
        public Store.Partition partition;
        public boolean exitWhenIdle;
        /** Failures of the job itself before it is dead-lettered. */
        public int maxAttempts = 5;
        /** Claims that end without an outcome (worker killed, paused, stopped) before it is dead-lettered. */
        public int maxAbandoned = Store.DEFAULT_MAX_ABANDONED;
        public long backoffBaseMillis = 1000;
        public long backoffCapMillis = 60_000;
        public Duration idlePoll = Duration.ofMillis(500);
        public String owner = defaultOwner();
        /** Test hook: sleep this long between the last lease check and the commit (a GC pause there). */
        public long pauseBeforeCommitMillis;

        Duration margin() {
            return safetyMargin != null ? safetyMargin : ttl.dividedBy(5);
        }
    }

    private final Store store;
    private final LockManager locks;
    private final Map<String, JobRunner> runners;
    private final Options options;
    private final FarmMetrics metrics;
    private final PrintStream log;
    private final Random random = new Random();
    /** Writes the store's lease expiry after each renewal, off the renewal's own path. */
    private final java.util.concurrent.ExecutorService hints = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lease-expiry-writer");
        t.setDaemon(true);
        return t;
    });
    private long lastBurial;
    /** Jobs claimed by a batch claim and not run yet (each under its own lease). */
    private final java.util.ArrayDeque<Store.LeasedClaim> claimed = new java.util.ArrayDeque<>();
    private int batch = 1;
    /** The lock manager is the store's own (PostgreSQL): lease and claim in one statement. */
    private final boolean combined;
    private volatile boolean stopped;
    private long lastStates;
    private int committed;
    private int stale;

    /**
     * @param locks the lock manager (the store's own by default)
     * @param log   one line per claim, commit, rejection and failure
     */
    public Worker(Store store, LockManager locks, Map<String, JobRunner> runners, Options options, FarmMetrics metrics,
                  PrintStream log) {
        if (locks == null) {
            throw new IllegalArgumentException("a worker needs a lock manager");
        }
        this.store = store;
        this.locks = locks;
        this.runners = new HashMap<>(runners);
        this.options = options;
        this.metrics = metrics;
        this.log = log;
        store.maxAbandoned(options.maxAbandoned);
        this.combined = locks instanceof lockstep.nes.farm.lock.SqlLockManager sql && sql.uses(store.db())
                && store.claims().combinedClaim();
    }

    public static String defaultOwner() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid() + ":" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 16));
    }

    public String owner() {
        return options.owner;
    }

    public int committed() {
        return committed;
    }

    public int staleCommits() {
        return stale;
    }

    public void stop() {
        stopped = true;
    }

    /** Why the lock server refused this worker's credentials while it ran, or null. */
    private volatile String refusal;

    /**
     * The lock server's refusal of the credentials that stopped this worker (its password was
     * changed under it), or null: no retry can succeed, so the worker gives its claims back and
     * stops, and the command ends with this one line.
     */
    public String refusal() {
        return refusal;
    }

    /** The lock server refused the credentials: stop as on SIGTERM, giving the running job back. */
    private void refused(LockRefusedException e) {
        if (refusal == null) {
            refusal = e.getMessage();
            log("stopping: " + e.getMessage());
        }
        shutdown();
    }

    /** The running job's kill switch, while one runs. */
    private volatile KillSwitch running;
    private volatile boolean shuttingDown;

    /**
     * Stops at once (SIGTERM): the running job is stopped at its next frame boundary and its
     * claim given back uncharged, so another worker takes it now rather than after the lease's
     * TTL, and the job is not charged an attempt.
     */
    public void shutdown() {
        shuttingDown = true;
        stopped = true;
        KillSwitch ks = running;
        if (ks != null) {
            ks.fire("the worker is stopping");
        }
    }

    /**
     * Works until stopped, or with {@link Options#exitWhenIdle} until no job (of its partition)
     * is queued or running. Store and lock-manager outages are waited out with backoff.
     */
    public void run() throws InterruptedException {
        Backoff idle = new Backoff(Math.max(1, options.idlePoll.toMillis() / 4), Math.max(1, options.idlePoll.toMillis()),
                random.nextLong());
        // at most 3 s between tries: a server back from an outage is used within seconds, as by
        // a freshly started worker; the jitter spreads the workers' tries
        Backoff outage = new Backoff(200, 3_000, random.nextLong());
        log("started (locks: " + locks.kind() + ", ttl " + options.ttl.toMillis() + " ms"
                + (options.partition != null ? ", partition " + options.partition : "") + ")");
        if (options.partition != null) {
            partitionKeeper = holdPartition();
            lastPartitionTry = System.nanoTime();
        }
        try {
            work(idle, outage);
        } finally {
            if (partitionKeeper != null) {
                partitionKeeper.close();
            }
            hints.shutdown();
        }
    }

    /** The partition's own lease while this worker holds it (null when another worker does). */
    private LeaseKeeper partitionKeeper;
    private KillSwitch partitionSwitch;
    private long lastPartitionTry;

    /**
     * A partition lease that was lost (a lock server restarted empty, a pause past the TTL) is
     * logged, and taken again once per TTL: whoever holds it then is the partition's first worker,
     * and a second one is reported as DUPLICATE.
     */
    private void checkPartition() {
        if (options.partition == null) {
            return;
        }
        if (partitionKeeper != null && partitionSwitch.fired()) {
            log("partition " + options.partition + " lease LOST (" + partitionSwitch.reason() + "); taking it again");
            partitionKeeper.close();
            partitionKeeper = null;
            lastPartitionTry = 0;
        }
        if (partitionKeeper == null && (lastPartitionTry == 0 || System.nanoTime() - lastPartitionTry >= options.ttl.toNanos())) {
            lastPartitionTry = System.nanoTime();
            partitionKeeper = holdPartition();
        }
    }

    /**
     * Takes the partition's own lease for as long as this worker runs, so that a second worker
     * given the same partition is reported at its start (both then share the partition's jobs,
     * each job under its lease as always). Null when the partition is already held.
     */
    private LeaseKeeper holdPartition() {
        String key = "partition:" + options.partition;
        try {
            Optional<Lease> got = locks.tryAcquire(key, options.owner, options.ttl);
            if (got.isPresent()) {
                partitionSwitch = new KillSwitch();
                return LeaseKeeper.start(locks, got.get(), partitionSwitch, options.margin(), null);
            }
            log("DUPLICATE partition " + options.partition + ": another worker already holds it; this one shares its jobs "
                    + "(each job under its own lease)");
        } catch (LockException e) {
            log("could not check partition " + options.partition + " for duplicates (" + e.getMessage() + ")");
        }
        return null;
    }

    private void work(Backoff idle, Backoff outage) throws InterruptedException {
        while (!stopped) {
            boolean worked;
            try {
                refreshStates(false);
                checkPartition();
                worked = runOne();
                outage.reset();
            } catch (LockRefusedException e) {
                refused(e);
                break;
            } catch (SQLException | LockException e) {
                long d = outage.nextDelayMillis();
                log("store or lock manager unavailable (" + e.getMessage() + "); retrying in " + d + " ms");
                Thread.sleep(d);
                continue;
            }
            if (worked && unrunnable) {
                unrunnable = false;
                Thread.sleep(Math.max(1, options.idlePoll.toMillis()));
                continue;
            }
            if (worked) {
                idle.reset();
                continue;
            }
            if (options.exitWhenIdle) {
                try {
                    if (store.unfinished(options.partition) == 0) {
                        refreshStates(true);
                        log("idle: no job left, exiting (" + committed + " committed, " + stale + " stale)");
                        return;
                    }
                } catch (SQLException e) {
                    // keep polling
                }
            }
            Thread.sleep(Math.max(1, idle.nextDelayMillis()));
        }
        // claims of a batch not run: give their leases back now rather than after their TTL
        for (Store.LeasedClaim lc; (lc = claimed.poll()) != null; ) {
            if (lc.job() != null) {
                giveBack(lc.job(), lc.lease().fencingToken(), "its worker stopped before running it", 0);
            }
            release(lc.lease());
        }
    }

    private void refreshStates(boolean now) {
        long t = System.nanoTime();
        if (metrics == null || (!now && t - lastStates < 2_000_000_000L)) {
            return;
        }
        lastStates = t;
        try {
            metrics.jobStates(store.countsByStatus());
        } catch (SQLException e) {
            // the gauge keeps its last value
        }
    }

    /** Claims and runs one job; false when none could be claimed. */
    public boolean runOne() throws SQLException, LockException {
        buryExhausted();
        if (combined && options.partition == null) {
            return runOneBatched();
        }
        // Candidates are fetched afresh for each claim (a list kept across jobs would hide a job
        // whose lease expired meanwhile), expired leases first, each group in random order so
        // workers rarely collide; one that another worker took in the meantime is skipped.
        List<Long> ids = new ArrayList<>(store.claims().takeovers(64, options.partition));
        Collections.shuffle(ids, random);
        List<Long> queued = new ArrayList<>(store.claims().candidates(64, options.partition));
        queued.removeAll(ids);
        Collections.shuffle(queued, random);
        ids.addAll(queued);
        for (long id : ids) {
            Lease lease;
            Store.Job job;
            if (combined) {
                Store.LeasedClaim lc = store.claims().acquireAndClaim(id, key(id), options.owner, options.ttl.toMillis(),
                        options.maxAttempts);
                if (lc == null) {
                    continue;
                }
                lease = lc.lease();
                job = lc.job();
            } else {
                Optional<Lease> got = locks.tryAcquire(key(id), options.owner, options.ttl);
                if (got.isEmpty()) {
                    continue;
                }
                lease = got.get();
                try {
                    job = store.claims().claim(id, options.owner, options.ttl.toMillis(), options.maxAttempts);
                } catch (SQLException e) {
                    release(lease);
                    throw e;
                }
            }
            if (job == null) {
                release(lease);
                continue;
            }
            KillSwitch ks = new KillSwitch();
            LeaseKeeper keeper = LeaseKeeper.start(new Expiring(locks, id, job.claimToken()), lease, ks, options.margin(),
                    metrics != null ? metrics.registry() : null);
            try {
                execute(job, job.claimToken(), keeper, ks);
            } finally {
                keeper.close();
            }
            return true;
        }
        return false;
    }

    /**
     * PostgreSQL with the store's own leases: claims come in small batches from one statement
     * ({@link lockstep.nes.farm.store.JobClaims#acquireAndClaimBatch}), each job under its own lease and fresh token, and a
     * successful commit deletes the lease in the same statement, so a short job costs about two
     * round trips instead of three or more. The batch grows only while jobs are short next to the
     * TTL; a claimed job still waiting here is not renewed, so it is run only while its lease has
     * more than the safety margin left, and otherwise dropped without writing anything (its lease
     * expires and another worker takes the job over).
     */
    private boolean runOneBatched() throws SQLException, LockException {
        if (claimed.isEmpty()) {
            for (Store.LeasedClaim lc : store.claims().acquireAndClaimBatch(batch, options.owner, options.ttl.toMillis(),
                    options.maxAttempts)) {
                if (lc.job() == null) {
                    release(lc.lease());
                } else {
                    claimed.add(lc);
                }
            }
        }
        Store.LeasedClaim lc = claimed.poll();
        if (lc == null) {
            batch = 1;
            return false;
        }
        Lease lease = lc.lease();
        long id = lc.job().id();
        long started = System.nanoTime();
        // a queued claim must leave its first renewal (due TTL/3 after the claim) time to answer
        if (started - (lease.validUntilNanos() - options.margin().toNanos()) >= 0) {
            if (metrics != null) {
                metrics.cancelled();
            }
            log("job " + id + " cancelled before it started (its lease, token " + lease.fencingToken()
                    + ", waited in this worker's batch past its safe deadline); nothing written");
            release(lease);
            return true;
        }
        KillSwitch ks = new KillSwitch();
        LeaseKeeper keeper = LeaseKeeper.start(new Expiring(locks, id, lease.fencingToken()), lease, ks, options.margin(),
                metrics != null ? metrics.registry() : null);
        boolean released = false;
        try {
            released = execute(lc.job(), lease.fencingToken(), keeper, ks, lease);
        } finally {
            if (released) {
                keeper.closeReleased();
            } else {
                keeper.close();
            }
        }
        long took = System.nanoTime() - started;
        // whole batch well inside the first renewal period: grow; otherwise claim one at a time
        batch = took * MAX_BATCH < options.ttl.toNanos() / 10 ? MAX_BATCH : 1;
        return true;
    }

    /** Most jobs claimed per round trip (only while jobs are short next to the TTL). */
    static final int MAX_BATCH = 8;

    /**
     * Dead-letters the jobs that used up their attempts without an outcome (claims skip them),
     * at most once per lease TTL (a scan of the claimable jobs: per claim it would cost a busy
     * worker a statement per job).
     */
    private void buryExhausted() throws SQLException {
        long t = System.nanoTime();
        if (lastBurial != 0 && t - lastBurial < options.ttl.toNanos()) {
            return;
        }
        lastBurial = t;
        int n = store.claims().buryExhausted(options.maxAttempts);
        if (n > 0) {
            if (metrics != null) {
                for (int i = 0; i < n; i++) {
                    metrics.dead();
                }
            }
            log(n + " job(s) claimed " + options.maxAttempts + " time(s) without an outcome moved to the dead-letter table");
        }
    }

    static String key(long jobId) {
        return "job:" + jobId;
    }

    private void release(Lease lease) {
        try {
            locks.release(lease);
        } catch (LockException e) {
            // It expires by itself.
        }
    }

    private void execute(Store.Job job, long token, LeaseKeeper keeper, KillSwitch ks) throws SQLException {
        execute(job, token, keeper, ks, null);
    }

    /**
     * Runs and commits one job; true when it committed and {@code releaseOnCommit} (a lease row
     * of the store) was deleted by the commit statement.
     */
    private boolean execute(Store.Job job, long token, LeaseKeeper keeper, KillSwitch ks, Lease releaseOnCommit)
            throws SQLException {
        JobLog.enter(job.id(), token, job.spec());
        try {
            return executeLogged(job, token, keeper, ks, releaseOnCommit);
        } finally {
            running = null;
            JobLog.leave();
        }
    }

    private boolean executeLogged(Store.Job job, long token, LeaseKeeper keeper, KillSwitch ks, Lease releaseOnCommit)
            throws SQLException {
        long id = job.id();
        log("job " + id + " (" + job.kind() + ") claimed with token " + token + ", attempt " + job.attempts());
        JobRunner runner = runners.get(job.kind());
        JobContext ctx = new JobContext(store, job, token, options.owner, ks);
        JobResult result;
        running = ks;
        if (shuttingDown) {
            ks.fire("the worker is stopping");
        }
        try {
            if (runner == null) {
                throw new JobUnrunnable("this worker cannot run jobs of kind '" + job.kind() + "'");
            }
            result = runner.run(ctx);
            ks.throwIfFired();
            if (keeper != null && !keeper.valid()) {
                throw new KilledException("lease of job " + id + " is past its safe deadline");
            }
        } catch (KilledException e) {
            // Nothing is written: the job will be taken over when the lease expires.
            if (metrics != null) {
                metrics.cancelled();
            }
            if (shuttingDown) {
                giveBack(job, token, "its worker stopped", 0);
                return false;
            }
            log("job " + id + " cancelled by the kill switch (" + e.getMessage() + "); nothing written");
            return false;
        } catch (JobUnrunnable e) {
            // not the job's failure: another worker (with the kind, or the files) takes it
            giveBack(job, token, "this worker cannot run it: " + e.getMessage(), Math.max(options.backoffBaseMillis,
                    options.idlePoll.toMillis()));
            unrunnable = true;
            return false;
        } catch (StaleTokenException e) {
            staleWrite(id, token, e.getMessage());
            return false;
        } catch (JobFailure | RuntimeException e) {
            String msg = e instanceof JobFailure ? e.getMessage() : e.toString();
            if (ks.fired()) {
                log("job " + id + " failed after its kill switch fired (" + msg + "); nothing written");
                return false;
            }
            fail(job, token, msg);
            return false;
        }
        if (options.pauseBeforeCommitMillis > 0) {
            log("job " + id + " committing with token " + token + " after a pause of " + options.pauseBeforeCommitMillis + " ms");
            try {
                Thread.sleep(options.pauseBeforeCommitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (store.claims().commit(id, token, options.owner, result.status(), result.json(), releaseOnCommit)) {
            committed++;
            if (metrics != null) {
                metrics.committed();
            }
            log("job " + id + " COMMITTED with token " + token + ": " + result.status());
            return releaseOnCommit != null;
        }
        staleWrite(id, token, "commit of job " + id + " rejected");
        return false;
    }

    /** Set when this worker gave a job back because it cannot run it: it then waits a poll before claiming again. */
    private boolean unrunnable;

    /** Gives the claim back uncharged (see {@link lockstep.nes.farm.store.JobClaims#release}) and logs it. */
    private void giveBack(Store.Job job, long token, String reason, long delayMs) {
        try {
            if (store.claims().release(job.id(), token, options.owner, reason, delayMs)) {
                log("job " + job.id() + " RELEASED uncharged (" + reason + ")");
            } else {
                log("job " + job.id() + ": could not release it (its claim is no longer current); nothing written");
            }
        } catch (SQLException e) {
            log("job " + job.id() + ": could not release it (" + e.getMessage() + "); it is taken over after its lease");
        }
    }

    private void staleWrite(long id, long token, String what) {
        stale++;
        if (metrics != null) {
            metrics.staleCommit();
        }
        log("job " + id + " STALE: " + what + " (token " + token + " is older than the job's newest claim or commit); "
                + "this attempt is void");
        try {
            store.claims().attemptEnded(id, token, "stale", what);
        } catch (SQLException e) {
            // bookkeeping only
        }
    }

    private void fail(Store.Job job, long token, String error) throws SQLException {
        Backoff b = new Backoff(options.backoffBaseMillis, Math.max(options.backoffBaseMillis, options.backoffCapMillis),
                random.nextLong());
        long delay = 0;
        for (int i = 0; i < Math.max(1, job.attempts()); i++) {
            delay = b.nextDelayMillis();
        }
        Store.FailOutcome o = store.claims().fail(job.id(), token, options.owner, error, options.maxAttempts, delay);
        if (metrics != null) {
            metrics.failed();
        }
        switch (o) {
            case RETRY -> log("job " + job.id() + " failed (attempt " + job.attempts() + "): " + error + "; retry in " + delay + " ms");
            case DEAD -> {
                if (metrics != null) {
                    metrics.dead();
                }
                log("job " + job.id() + " failed (attempt " + job.attempts() + " of " + options.maxAttempts + "): " + error
                        + "; moved to the dead-letter table");
            }
            case STALE -> staleWrite(job.id(), token, "failure record of job " + job.id() + " rejected");
        }
    }

    /** One event: to the given stream (tests), else to the farm's log (SLF4J, one line each). */
    private void log(String line) {
        if (log != null) {
            synchronized (log) {
                log.println("worker " + options.owner + ": " + line);
                log.flush();
            }
        } else {
            JobLog.WORKER.info("worker {}: {}", options.owner, line);
        }
    }

    /**
     * The lock manager, with each successful renewal also moving the job's lease expiry in the
     * store. That write is queued on its own thread: a slow or locked store row cannot delay the
     * renewal (and so cannot fire the kill switch of a job whose lock is healthy). If the store
     * write comes too late, the store's lease lapses and the commit is refused, which is safe.
     */
    private final class Expiring implements LockManager {
        private final LockManager d;
        private final long jobId;
        private final long token;

        Expiring(LockManager d, long jobId, long token) {
            this.d = d;
            this.jobId = jobId;
            this.token = token;
        }

        @Override
        public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
            return d.tryAcquire(key, owner, ttl);
        }

        @Override
        public Optional<Lease> renew(Lease lease) throws LockException {
            Optional<Lease> r;
            try {
                r = d.renew(lease);
            } catch (LockRefusedException e) {
                refused(e); // fires the running job's kill switch: it is given back
                throw e;
            }
            if (r.isPresent()) {
                try {
                    String spec = org.slf4j.MDC.get("rom");
                    hints.execute(() -> {
                        JobLog.enter(jobId, token, null);
                        org.slf4j.MDC.put("rom", spec == null ? "-" : spec);
                        try {
                            if (!store.claims().extendLease(jobId, token, lease.ttlMillis())) {
                                log("job " + jobId + ": its lease had already expired in the store; the commit will be refused");
                            }
                        } catch (SQLException e) {
                            log("job " + jobId + ": could not extend its lease in the store (" + e.getMessage() + ")");
                        } finally {
                            JobLog.leave();
                        }
                    });
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // the worker is stopping
                }
            }
            return r;
        }

        @Override
        public void release(Lease lease) throws LockException {
            d.release(lease);
        }

        @Override
        public String kind() {
            return d.kind();
        }

        @Override
        public void close() {
            // The worker owns the real manager.
        }
    }
}
