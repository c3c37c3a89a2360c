package lockstep.nes.farm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.nes.farm.job.CanaryJob;
import lockstep.nes.farm.job.JobRunner;
import lockstep.nes.farm.job.NoopJob;
import lockstep.nes.farm.lock.LockException;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.lock.LockManagers;
import lockstep.nes.farm.lock.LockRefusedException;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.CoordinatorTerms;
import lockstep.nes.farm.store.JobSelection;
import lockstep.nes.farm.store.SchemaAccess;
import lockstep.nes.farm.store.Store;
import lockstep.nes.farm.store.StoreRefusedException;
import lockstep.nes.farm.store.StoreUrl;
import lockstep.nes.verifier.MetricsServer;

/**
 * The farm's commands ({@code lockstep farm submit|worker|coordinator|status|report}) as plain
 * methods: they print to the given streams and return the exit code (0 ok, 1 failure, 2 bad
 * input: one line naming what is wrong).
 */
public final class Farm {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Farm() {
    }

    /** Bad input: one line, exit 2. */
    public static final class BadInput extends Exception {
        private static final long serialVersionUID = 1L;

        public BadInput(String message) {
            super(message);
        }
    }

    /**
     * Opens the store as {@code access} allows (only {@code farm submit} creates one; status,
     * report, requeue and cancel never change its schema), turning a bad URL into BadInput.
     */
    static Store open(String url, int pool, SchemaAccess access) throws BadInput, SQLException {
        if (url == null) {
            throw new BadInput("--store is required");
        }
        try {
            return Store.open(url, pool, access);
        } catch (StoreUrl.BadUrlException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** Runs a command body with the usual error mapping. */
    interface Body {
        int run() throws BadInput, SQLException, LockException, IOException, InterruptedException;
    }

    static int guard(PrintStream err, Body body) {
        JulBridge.install();
        try {
            return body.run();
        } catch (BadInput | StoreRefusedException e) {
            err.println("error: " + oneLine(e.getMessage()));
            return 2;
        } catch (SQLException | LockException | IOException e) {
            err.println("error: " + oneLine(e.getMessage()));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return 1;
        }
    }

    static String oneLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Submits jobs of {@code kind} with the given specs to today's run; prints their ids. */
    public static int submit(String storeUrl, String kind, List<String> specs, PrintStream out, PrintStream err) {
        return submit(storeUrl, kind, specs, null, out, err);
    }

    /** Submits jobs of {@code kind} with the given specs to run {@code run} (null: today's); prints their ids. */
    public static int submit(String storeUrl, String kind, List<String> specs, String run, PrintStream out,
                             PrintStream err) {
        return guard(err, () -> {
            if (run != null && run.isBlank()) {
                throw new BadInput("--run needs a name");
            }
            try (Store store = open(storeUrl, 2, SchemaAccess.CREATE)) {
                String runName = run != null ? run : Store.defaultRun();
                List<Long> ids = store.submit(kind, specs, runName, true);
                int skipped = specs.size() - ids.size();
                out.println("submitted " + ids.size() + " " + kind + " job(s)"
                        + (ids.isEmpty() ? "" : ": " + (ids.size() == 1 ? "id " + ids.get(0) : "ids " + ids.get(0) + ".." + ids.get(ids.size() - 1)))
                        + (skipped > 0 ? " (" + skipped + " already in run " + runName + ", not added again)" : ""));
                return 0;
            }
        });
    }

    /** Worker settings from the command line. */
    public static final class WorkerArgs {
        public String store;
        public String locks;
        public String partition;
        public boolean exitWhenIdle;
        public long ttlMillis = 15_000;
        public Long marginMillis;
        public int maxAttempts = 5;
        public int maxAbandoned = Store.DEFAULT_MAX_ABANDONED;
        public long backoffBaseMillis = 1000;
        public long backoffCapMillis = 60_000;
        public Integer metricsPort;
        public long pauseBeforeCommitMillis;
        /** Job kinds this worker runs besides noop and canary (e.g. test-roms, wired by the app). */
        public Map<String, JobRunner> moreRunners = new LinkedHashMap<>();
        public long idlePollMillis = 500;
    }

    public static int worker(WorkerArgs a, PrintStream out, PrintStream err) {
        return guard(err, () -> {
            Worker.Options o = new Worker.Options();
            if (a.partition != null) {
                try {
                    o.partition = Store.Partition.parse(a.partition);
                } catch (IllegalArgumentException e) {
                    throw new BadInput(e.getMessage());
                }
            }
            if (a.ttlMillis < 300) {
                throw new BadInput("--ttl must be at least 300 ms");
            }
            if (a.maxAttempts < 1) {
                throw new BadInput("--max-attempts must be at least 1");
            }
            if (a.maxAbandoned < 1) {
                throw new BadInput("--max-abandoned must be at least 1");
            }
            o.maxAbandoned = a.maxAbandoned;
            o.ttl = Duration.ofMillis(a.ttlMillis);
            o.safetyMargin = margin(a.marginMillis, o.ttl);
            o.exitWhenIdle = a.exitWhenIdle;
            o.maxAttempts = a.maxAttempts;
            o.backoffBaseMillis = Math.max(1, a.backoffBaseMillis);
            o.backoffCapMillis = Math.max(o.backoffBaseMillis, a.backoffCapMillis);
            o.pauseBeforeCommitMillis = a.pauseBeforeCommitMillis;
            o.idlePoll = Duration.ofMillis(Math.max(1, a.idlePollMillis));
            FarmMetrics metrics = new FarmMetrics();
            try (Store store = open(a.store, 4, SchemaAccess.UPGRADE);
                 LockManager locks = checked(a.locks != null ? openLocks(a.locks) : new SqlLockManager(store.db(), false));
                 MetricsServer server = a.metricsPort != null ? new MetricsServer(a.metricsPort, metrics.prometheus(), null) : null) {
                if (server != null) {
                    out.println("worker: metrics on http://127.0.0.1:" + server.port() + "/metrics");
                }
                Worker w = new Worker(store, locks, runners(a.moreRunners), o, metrics, null);
                // SIGTERM (a pod stopping, Ctrl-C): the running job's claim is given back uncharged
                java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
                Thread hook = new Thread(() -> {
                    w.shutdown();
                    try {
                        done.await(o.ttl.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "farm-worker-shutdown");
                Runtime.getRuntime().addShutdownHook(hook);
                try {
                    w.run();
                    if (w.refusal() != null) {
                        throw new BadInput(oneLine(w.refusal())); // its claims are given back
                    }
                } finally {
                    done.countDown();
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException e) {
                        // the JVM is already stopping: the hook is running
                    }
                }
                return 0;
            }
        });
    }

    /**
     * The safety margin, checked before anything is claimed: at least 0, and below two thirds of
     * the TTL (the first renewal, due at TTL/3, must land before the margin is reached). Null
     * keeps the default (TTL/5).
     */
    static Duration margin(Long marginMillis, Duration ttl) throws BadInput {
        if (marginMillis == null) {
            return null;
        }
        if (marginMillis < 0) {
            throw new BadInput("--safety-margin must be at least 0 ms, not " + marginMillis);
        }
        Duration m = Duration.ofMillis(marginMillis);
        if (m.compareTo(ttl.multipliedBy(2).dividedBy(3)) >= 0) {
            throw new BadInput("--safety-margin must be below two thirds of the TTL");
        }
        return m;
    }

    /**
     * How long a starting worker or coordinator asks again a lock server where nothing accepts
     * a connection (a restart in progress) before giving up: a server that is not there is one
     * line and exit 2 within seconds.
     */
    static final Duration START_CHECK_WINDOW = Duration.ofSeconds(3);

    /**
     * How long it asks again a server that accepts connections but has not answered: on a
     * loaded machine a fresh JVM's first gRPC call alone can take several seconds, and a
     * coordinator that gave up then would never campaign.
     */
    static final Duration START_CHECK_SLOW_WINDOW = Duration.ofSeconds(60);

    /**
     * The lock manager once it has answered one call. Refused credentials are bad input at once
     * (one line, exit 2). A server that does not answer is asked again with backoff: for
     * {@link #START_CHECK_WINDOW} while nothing accepts a connection at its address, for
     * {@link #START_CHECK_SLOW_WINDOW} while something does; then it too is bad input, not a
     * silent retry loop.
     */
    static LockManager checked(LockManager locks) throws BadInput {
        return checked(locks, START_CHECK_WINDOW, START_CHECK_SLOW_WINDOW);
    }

    static LockManager checked(LockManager locks, Duration window, Duration slowWindow) throws BadInput {
        long start = System.nanoTime();
        long delayMillis = 100;
        while (true) {
            try {
                locks.check();
                return locks;
            } catch (LockRefusedException e) {
                locks.close();
                throw new BadInput(oneLine(e.getMessage()));
            } catch (LockException e) {
                // Ask again only once something listens: calls sent to a closed port would only
                // pile up retries in the client, and its warnings when it closes.
                while (true) {
                    long next = System.nanoTime() + delayMillis * 1_000_000L - start;
                    boolean listening = locks.listening();
                    if (next >= slowWindow.toNanos() || next >= window.toNanos() && !listening) {
                        locks.close();
                        throw new BadInput(oneLine(e.getMessage()));
                    }
                    try {
                        Thread.sleep(delayMillis);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        locks.close();
                        throw new BadInput(oneLine(e.getMessage()));
                    }
                    delayMillis = Math.min(2 * delayMillis, 1000);
                    if (listening) {
                        break;
                    }
                }
            }
        }
    }

    static LockManager openLocks(String url) throws BadInput, LockException {
        String scheme = url.contains("://") ? url.substring(0, url.indexOf("://")) : url.startsWith("sqlite:") ? "sqlite" : "";
        if (scheme.isEmpty() && !url.endsWith(".db")) {
            throw new BadInput("bad --locks URL '" + url + "' (expected postgresql://, sqlite:PATH, redis://, etcd:// or etcds://)");
        }
        try {
            return LockManagers.open(url);
        } catch (LockException e) {
            String m = e.getMessage();
            if (m != null && (m.startsWith("unknown lock manager URL") || m.startsWith("bad "))) {
                throw new BadInput(e.getMessage());
            }
            throw e;
        }
    }

    /** The job kinds a worker runs. */
    public static Map<String, JobRunner> runners(Map<String, JobRunner> more) {
        Map<String, JobRunner> m = new LinkedHashMap<>();
        m.put(NoopJob.KIND, new NoopJob());
        m.put(CanaryJob.KIND, new CanaryJob());
        m.putAll(more);
        return m;
    }

    /** Coordinator settings. */
    public static final class CoordinatorArgs {
        public String store;
        public String locks;
        public long ttlMillis = 15_000;
        public Long marginMillis;
        public long periodMillis = 2000;
        public Integer metricsPort;
        public long pauseBeforeWriteMillis;
        public int periods;
    }

    public static int coordinator(CoordinatorArgs a, PrintStream out, PrintStream err) {
        return guard(err, () -> {
            Coordinator.Options o = new Coordinator.Options();
            if (a.ttlMillis < 300) {
                throw new BadInput("--ttl must be at least 300 ms");
            }
            o.ttl = Duration.ofMillis(a.ttlMillis);
            o.safetyMargin = margin(a.marginMillis, o.ttl);
            if (a.periodMillis < 10) {
                throw new BadInput("--period must be at least 10 ms, not " + a.periodMillis);
            }
            o.period = Duration.ofMillis(a.periodMillis);
            o.pauseBeforeWriteMillis = a.pauseBeforeWriteMillis;
            o.periods = a.periods;
            FarmMetrics metrics = new FarmMetrics();
            try (Store store = open(a.store, 4, SchemaAccess.UPGRADE);
                 LockManager locks = checked(a.locks != null ? openLocks(a.locks) : new SqlLockManager(store.db(), false));
                 MetricsServer server = a.metricsPort != null ? new MetricsServer(a.metricsPort, metrics.prometheus(), null) : null) {
                if (server != null) {
                    out.println("coordinator: metrics on http://127.0.0.1:" + server.port() + "/metrics");
                }
                Coordinator c = new Coordinator(store, locks, o, metrics, null);
                c.run();
                if (c.refusal() != null) {
                    throw new BadInput(oneLine(c.refusal()));
                }
                return 0;
            }
        });
    }

    /** Job counts by state, result counts, the coordinator's term and the dead letters. */
    public static int status(String storeUrl, PrintStream out, PrintStream err) {
        return guard(err, () -> {
            try (Store store = open(storeUrl, 2, SchemaAccess.READ)) {
                Map<String, Integer> c = store.countsByStatus();
                int total = c.values().stream().mapToInt(Integer::intValue).sum();
                out.println("store: " + store.db().url() + " (schema v" + store.db().schemaVersion() + ")");
                out.println("jobs: " + total + " (" + c.get(Store.QUEUED) + " queued, " + c.get(Store.RUNNING) + " running, "
                        + c.get(Store.DONE) + " done, " + c.get(Store.DEAD) + " dead)");
                Map<String, Integer> r = store.resultCounts();
                if (!r.isEmpty()) {
                    List<String> parts = new ArrayList<>();
                    r.forEach((k, v) -> parts.add(v + " " + k));
                    out.println("results: " + String.join(", ", parts));
                }
                Map<String, Integer> at = store.attemptCounts();
                if (!at.isEmpty()) {
                    List<String> parts = new ArrayList<>();
                    at.forEach((k, v) -> parts.add(v + " " + k));
                    out.println("attempts: " + String.join(", ", parts));
                }
                CoordinatorTerms.Term t = store.coordinator().coordinatorTerm();
                out.println("coordinator: " + (t.term() == 0 ? "none yet" : "term " + t.term() + " (" + t.leader() + ")"));
                List<Store.DeadLetter> dead = store.deadLetters();
                out.println("dead letters: " + dead.size());
                for (Store.DeadLetter d : dead) {
                    out.println("  job " + d.jobId() + " " + d.kind() + " " + d.spec() + ": " + d.attempts() + " attempt(s), last error: "
                            + oneLine(d.lastError()));
                }
                return 0;
            }
        });
    }

    /**
     * The report: one row per job (of run {@code run}, or of every run when null) with its ROM,
     * kind, attempts (failed and abandoned apart), token, outcome and duration; {@code json}
     * prints the same as one JSON object.
     */
    public static int report(String storeUrl, String run, boolean json, PrintStream out, PrintStream err) {
        return guard(err, () -> {
            try (Store store = open(storeUrl, 2, SchemaAccess.READ)) {
                List<Store.ReportRow> rows = store.report(run);
                if (json) {
                    ObjectNode root = JSON.createObjectNode();
                    if (run == null) {
                        root.putNull("run");
                    } else {
                        root.put("run", run);
                    }
                    ArrayNode jobs = root.putArray("jobs");
                    for (Store.ReportRow r : rows) {
                        ObjectNode j = jobs.addObject();
                        j.put("job_id", r.jobId());
                        j.put("run", r.run());
                        j.put("kind", r.kind());
                        j.put("rom", rom(r));
                        j.put("status", r.status());
                        j.put("outcome", outcome(r));
                        if (r.result() == null) {
                            j.putNull("result");
                        } else {
                            j.put("result", r.result());
                        }
                        j.put("attempts", r.attempts());
                        j.put("failed_attempts", r.failed());
                        j.put("abandoned_attempts", r.abandoned());
                        j.put("fencing_token", r.fencingToken());
                        if (r.durationMs() < 0) {
                            j.putNull("duration_ms");
                        } else {
                            j.put("duration_ms", r.durationMs());
                        }
                        if (r.lastError() == null) {
                            j.putNull("last_error");
                        } else {
                            j.put("last_error", r.lastError());
                        }
                    }
                    out.println(JSON.writeValueAsString(root));
                    return 0;
                }
                out.printf("%-7s %-10s %-9s %-10s %-8s %-12s %-7s %-9s %s%n", "job", "run", "kind", "outcome", "attempts",
                        "failed/aband", "token", "duration", "rom");
                for (Store.ReportRow r : rows) {
                    out.printf("%-7d %-10s %-9s %-10s %-8d %-12s %-7d %-9s %s%n", r.jobId(), r.run(), r.kind(), outcome(r),
                            r.attempts(), r.failed() + "/" + r.abandoned(), r.fencingToken(),
                            r.durationMs() < 0 ? "-" : r.durationMs() + " ms", describe(r));
                }
                out.println(rows.size() + " job(s)");
                return 0;
            }
        });
    }

    /** {@link #report(String, String, boolean, PrintStream, PrintStream)} of every run. */
    public static int report(String storeUrl, boolean json, PrintStream out, PrintStream err) {
        return report(storeUrl, null, json, out, err);
    }

    /** What became of a job: its result, or its state (queued, running, dead, cancelled). */
    private static String outcome(Store.ReportRow r) {
        if (r.result() != null) {
            return r.result();
        }
        if (Store.DEAD.equals(r.status()) && "cancelled by an operator".equals(r.lastError())) {
            return "cancelled";
        }
        return r.status();
    }

    private static String rom(Store.ReportRow r) {
        try {
            return JSON.readTree(r.spec()).path("rom").asText("-");
        } catch (IOException e) {
            return "-";
        }
    }

    /** Parses the job ids an operator named; {@code all} instead of ids selects every job. */
    static JobSelection selection(List<String> ids, boolean all, String command) throws BadInput {
        if (all == !ids.isEmpty()) {
            throw new BadInput(command + ": name job ids or --all (not both)");
        }
        if (all) {
            return JobSelection.everything();
        }
        List<Long> out = new ArrayList<>();
        for (String id : ids) {
            try {
                out.add(Long.parseLong(id.strip()));
            } catch (NumberFormatException e) {
                throw new BadInput(command + ": '" + id + "' is not a job id");
            }
        }
        return JobSelection.of(out);
    }

    /** Queues dead-lettered jobs again (with {@code failed}, also finished jobs whose result is not a pass). */
    public static int requeue(String storeUrl, List<String> ids, boolean all, boolean failed, PrintStream out,
                              PrintStream err) {
        return guard(err, () -> {
            JobSelection which = selection(ids, all, "requeue");
            try (Store store = open(storeUrl, 2, SchemaAccess.READ)) {
                refuseUnknown(store, which, "requeue");
                int n = store.requeue(which, failed);
                out.println("requeued " + n + " job(s)");
                return 0;
            }
        });
    }

    /** Cancels queued or running jobs (they go to the dead letters as cancelled). */
    public static int cancel(String storeUrl, List<String> ids, boolean all, PrintStream out, PrintStream err) {
        return guard(err, () -> {
            JobSelection which = selection(ids, all, "cancel");
            try (Store store = open(storeUrl, 2, SchemaAccess.READ)) {
                refuseUnknown(store, which, "cancel");
                int n = store.cancel(which);
                out.println("cancelled " + n + " job(s)");
                return 0;
            }
        });
    }

    /** Bad input naming the ids that are no job of the store (nothing is changed then). */
    static void refuseUnknown(Store store, JobSelection which, String command) throws BadInput, SQLException {
        List<Long> unknown = store.unknown(which.ids());
        if (!unknown.isEmpty()) {
            throw new BadInput(command + ": no job " + unknown.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ")) + " in " + store.db().url() + " (nothing changed)");
        }
    }

    private static String describe(Store.ReportRow r) {
        String what = rom(r);
        if ("-".equals(what)) {
            what = r.spec();
        }
        if (r.resultJson() != null) {
            try {
                String m = JSON.readTree(r.resultJson()).path("message").asText("");
                if (!m.isEmpty()) {
                    what += ": " + (m.length() > 80 ? m.substring(0, 77) + "..." : m);
                }
            } catch (IOException e) {
                // keep the spec only
            }
        } else if (r.lastError() != null) {
            what += " (last error: " + oneLine(r.lastError()) + ")";
        }
        return what;
    }
}
