package lockstep.nes.farm.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The farm's jobs, attempts, results, dead letters, checkpoints and coordinator state in one
 * store (PostgreSQL or a SQLite file).
 *
 * <p>Fencing: a claim takes a fresh token from the store's own counter and records it in
 * {@code jobs.claim_token}, with the lease's expiry by the store's clock in {@code
 * jobs.lease_until_ms}; every later write for the job (checkpoint, result, failure) is an
 * {@code UPDATE ... WHERE job_id = :id AND claim_token = :token AND claim_owner = :owner AND
 * last_fencing_token < :token AND status = 'running' AND lease_until_ms > now} that sets {@code
 * last_fencing_token = :token}: exactly the current claim's token and owner, never a token merely
 * greater (one never issued to this job's claim).
 * A holder that paused past its lease either carries an older token than {@code claim_token}
 * (another worker claimed the job) or finds its lease expired by the store's clock, so its write
 * changes no row; a result can be committed once, because the first commit leaves the job
 * {@code done} with the committing token as {@code last_fencing_token}. Claims and the fenced
 * writes are {@link JobClaims} ({@link #claims()}); the coordinator's are {@link CoordinatorTerms}.
 */
public final class Store implements AutoCloseable {
    /** A job row. */
    public record Job(long id, String kind, String spec, String status, int attempts, long claimToken,
                      long lastFencingToken, String lastError) {
    }

    /** What {@link JobClaims#fail} did. */
    public enum FailOutcome {
        /** Queued again after its backoff. */
        RETRY,
        /** Moved to the dead-letter table. */
        DEAD,
        /** Rejected: a newer token holds the job (nothing written). */
        STALE
    }

    /**
     * One report row: the job, its committed result if any, and its attempts (all claims, those
     * that failed, those abandoned because the worker died or lost the lease); {@code durationMs}
     * is the committing attempt's claim-to-commit time, or -1.
     */
    public record ReportRow(long jobId, String run, String kind, String spec, String status, String result,
                            String resultJson, long fencingToken, int attempts, int failed, int abandoned, long durationMs,
                            String lastError) {
    }

    /** A dead letter. */
    public record DeadLetter(long jobId, String kind, String spec, int attempts, String lastError, long fencingToken) {
    }

    /** A job claimed together with its lease; {@code job} is null when the lease was taken but the job is finished. */
    public record LeasedClaim(lockstep.nes.farm.lock.Lease lease, Job job) {
    }

    /** A stored checkpoint. */
    public record Checkpoint(long jobId, int frame, byte[] data, long fencingToken) {
    }

    /** A static partition: this worker owns the jobs whose id mod {@code count} is {@code index}. */
    public record Partition(int index, int count) {
        public Partition {
            if (count < 1 || index < 0 || index >= count) {
                throw new IllegalArgumentException("partition " + index + "/" + count + ": need 0 <= i < n");
            }
        }

        /** Parses {@code i/n}. */
        public static Partition parse(String s) {
            int slash = s == null ? -1 : s.indexOf('/');
            if (slash < 1) {
                throw new IllegalArgumentException("bad partition '" + s + "' (expected i/n, e.g. 0/4)");
            }
            try {
                return new Partition(Integer.parseInt(s.substring(0, slash).strip()),
                        Integer.parseInt(s.substring(slash + 1).strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad partition '" + s + "' (expected i/n, e.g. 0/4)");
            }
        }

        String sql() {
            return " AND job_id % " + count + " = " + index;
        }

        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    public static final String QUEUED = "queued";
    public static final String RUNNING = "running";
    public static final String DONE = "done";
    public static final String DEAD = "dead";

    private final Database db;
    private final String now;
    private final CoordinatorTerms coordinator;
    private final JobClaims claims;

    /** The default bound on abandoned claims: well above the failures' (kills and pauses are not the job's fault). */
    public static final int DEFAULT_MAX_ABANDONED = 10;

    /** Sets the bound on abandoned claims (at least 1) that claims and {@link JobClaims#buryExhausted} use. */
    public void maxAbandoned(int n) {
        claims.maxAbandoned(n);
    }

    public Store(Database db) {
        this.db = db;
        this.now = db.nowMs();
        this.coordinator = new CoordinatorTerms(db, now);
        this.claims = new JobClaims(db);
    }

    /** Opens the store a URL names, creating or migrating it. */
    public static Store open(String url, int poolSize) throws StoreUrl.BadUrlException, SQLException {
        return open(url, poolSize, SchemaAccess.CREATE);
    }

    /**
     * Opens the store a URL names as {@code access} allows: a SQLite path that is missing (unless
     * creating) or holds something other than a SQLite database is refused before the driver
     * touches it (it would create the file, or fail with its own text).
     */
    public static Store open(String url, int poolSize, SchemaAccess access) throws StoreUrl.BadUrlException, SQLException {
        StoreUrl parsed = StoreUrl.parse(url);
        if (parsed.file() != null) {
            SqliteFile.check(parsed.file(), access == SchemaAccess.CREATE);
        }
        Database db = Database.open(parsed, poolSize);
        try {
            db.prepare(access);
        } catch (SQLException e) {
            db.close();
            throw e;
        }
        return new Store(db);
    }

    public Database db() {
        return db;
    }

    // ---- Submitting

    /** The run a job belongs to when none is named: the UTC date of its submission (the nightly run). */
    public static String defaultRun() {
        return java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
    }

    /** Adds jobs of one kind to today's run ({@link #defaultRun}); returns their ids in order. */
    public List<Long> submit(String kind, List<String> specs) throws SQLException {
        return submit(kind, specs, defaultRun());
    }

    /** Adds jobs of one kind (one per spec) to run {@code run} in one transaction; returns their ids in order. */
    public List<Long> submit(String kind, List<String> specs, String run) throws SQLException {
        return submit(kind, specs, run, false);
    }

    /**
     * {@link #submit(String, List, String)}; with {@code skipExisting}, a spec of this kind already
     * in the run (from an earlier submission, whatever its state) is not added again, so
     * submitting a run twice does not run its jobs twice. Returns the ids added, in order.
     */
    public List<Long> submit(String kind, List<String> specs, String run, boolean skipExisting) throws SQLException {
        return db.tx(c -> {
            java.util.Set<String> existing = new java.util.HashSet<>();
            if (skipExisting) {
                try (PreparedStatement ps = c.prepareStatement("SELECT spec FROM jobs WHERE kind = ? AND run_name = ?")) {
                    ps.setString(1, kind);
                    ps.setString(2, run);
                    try (ResultSet r = ps.executeQuery()) {
                        while (r.next()) {
                            existing.add(r.getString(1));
                        }
                    }
                }
            }
            List<Long> ids = new ArrayList<>(specs.size());
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO jobs (kind, spec, status, run_name, submitted_ms, updated_ms) VALUES (?, ?, 'queued', ?, "
                            + now + ", " + now + ")", Statement.RETURN_GENERATED_KEYS)) {
                for (String spec : specs) {
                    if (existing.contains(spec)) {
                        continue;
                    }
                    ps.setString(1, kind);
                    ps.setString(2, spec);
                    ps.setString(3, run);
                    ps.executeUpdate();
                    try (ResultSet k = ps.getGeneratedKeys()) {
                        k.next();
                        ids.add(k.getLong(1));
                    }
                }
            }
            return ids;
        });
    }

    /** The job's last checkpoint, or null. */
    public Checkpoint checkpoint(long jobId) throws SQLException {
        return db.auto(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT frame, data, fencing_token FROM checkpoints WHERE job_id = ?")) {
                ps.setLong(1, jobId);
                try (ResultSet r = ps.executeQuery()) {
                    return r.next() ? new Checkpoint(jobId, r.getInt(1), r.getBytes(2), r.getLong(3)) : null;
                }
            }
        });
    }

    // ---- Reading

    public Job job(long jobId) throws SQLException {
        return db.auto(c -> find(c, jobId));
    }

    static Job find(Connection c, long jobId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, kind, spec, status, attempts, claim_token, "
                + "last_fencing_token, last_error FROM jobs WHERE job_id = ?")) {
            ps.setLong(1, jobId);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? job(r) : null;
            }
        }
    }

    static Job job(ResultSet r) throws SQLException {
        return new Job(r.getLong("job_id"), r.getString("kind"), r.getString("spec"), r.getString("status"),
                r.getInt("attempts"), r.getLong("claim_token"), r.getLong("last_fencing_token"), r.getString("last_error"));
    }

    /** Jobs not yet finished (queued or running), in the partition if one is given. */
    public int unfinished(Partition p) throws SQLException {
        return db.auto(c -> {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')" + (p == null ? "" : p.sql()))) {
                r.next();
                return r.getInt(1);
            }
        });
    }

    /** Job counts by status (every status present, zero included). */
    public Map<String, Integer> countsByStatus() throws SQLException {
        return db.auto(c -> {
            Map<String, Integer> m = new LinkedHashMap<>();
            for (String s : List.of(QUEUED, RUNNING, DONE, DEAD)) {
                m.put(s, 0);
            }
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT status, count(*) FROM jobs GROUP BY status")) {
                while (r.next()) {
                    m.put(r.getString(1), r.getInt(2));
                }
            }
            return m;
        });
    }

    /** Result counts by result status (pass, fail, diverged, ...). */
    public Map<String, Integer> resultCounts() throws SQLException {
        return db.auto(c -> {
            Map<String, Integer> m = new LinkedHashMap<>();
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT status, count(*) FROM results GROUP BY status ORDER BY status")) {
                while (r.next()) {
                    m.put(r.getString(1), r.getInt(2));
                }
            }
            return m;
        });
    }

    public List<DeadLetter> deadLetters() throws SQLException {
        return db.auto(c -> {
            List<DeadLetter> out = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT d.job_id, j.kind, j.spec, d.attempts, d.last_error, d.fencing_token FROM dead_letter d "
                            + "JOIN jobs j ON j.job_id = d.job_id ORDER BY d.job_id")) {
                while (r.next()) {
                    out.add(new DeadLetter(r.getLong(1), r.getString(2), r.getString(3), r.getInt(4), r.getString(5),
                            r.getLong(6)));
                }
            }
            return out;
        });
    }

    /** One row per job, of one run or (null) of all (the primary keys of jobs and results make a second row impossible). */
    public List<ReportRow> report(String run) throws SQLException {
        return db.auto(c -> {
            List<ReportRow> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT j.job_id, j.run_name, j.kind, j.spec, j.status, r.status, r.result, "
                            + "COALESCE(r.fencing_token, j.claim_token), j.attempts, "
                            + "(SELECT count(*) FROM attempts a WHERE a.job_id = j.job_id AND a.outcome = 'failed'), "
                            + "(SELECT count(*) FROM attempts a WHERE a.job_id = j.job_id AND a.outcome = 'abandoned'), "
                            + "COALESCE((SELECT r.committed_ms - a.started_ms FROM attempts a WHERE a.job_id = j.job_id "
                            + "AND a.fencing_token = r.fencing_token), -1), j.last_error "
                            + "FROM jobs j LEFT JOIN results r ON r.job_id = j.job_id"
                            + (run == null ? "" : " WHERE j.run_name = ?") + " ORDER BY j.job_id")) {
                if (run != null) {
                    ps.setString(1, run);
                }
                try (ResultSet r = ps.executeQuery()) {
                    while (r.next()) {
                        out.add(new ReportRow(r.getLong(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                                r.getString(6), r.getString(7), r.getLong(8), r.getInt(9), r.getInt(10), r.getInt(11),
                                r.getLong(12), r.getString(13)));
                    }
                }
            }
            return out;
        });
    }

    /** {@link #report(String)} of every run. */
    public List<ReportRow> report() throws SQLException {
        return report(null);
    }

    // ---- Operators' actions

    /** The first column of {@code sql}'s rows, as ids. */
    static List<Long> ids(Database db, String sql) throws SQLException {
        return db.auto(c -> {
            List<Long> ids = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
                while (r.next()) {
                    ids.add(r.getLong(1));
                }
            }
            return ids;
        });
    }

    /** The ids among {@code ids} that name no job, in the order given. */
    public List<Long> unknown(List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return List.of();
        }
        java.util.Set<Long> known = new java.util.HashSet<>(ids(db, "SELECT job_id FROM jobs WHERE 1 = 1"
                + JobSelection.of(ids).sql()));
        return ids.stream().filter(id -> !known.contains(id)).distinct().toList();
    }

    /**
     * Queues dead-lettered jobs again (and, with {@code failed}, finished jobs whose result is not a
     * pass: their result is removed): fresh attempts count, no backoff. Returns how many.
     */
    public int requeue(JobSelection which, boolean failed) throws SQLException {
        String jobs = "(status = 'dead'" + (failed ? " OR (status = 'done' AND job_id IN (SELECT job_id FROM results "
                + "WHERE status NOT IN ('pass', 'ok')))" : "") + ")" + which.sql();
        return db.tx(c -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM dead_letter WHERE job_id IN (SELECT job_id FROM jobs WHERE " + jobs + ")");
                s.executeUpdate("DELETE FROM results WHERE job_id IN (SELECT job_id FROM jobs WHERE " + jobs + ")");
                s.executeUpdate("DELETE FROM checkpoints WHERE job_id IN (SELECT job_id FROM jobs WHERE " + jobs + ")");
                return s.executeUpdate("UPDATE jobs SET status = 'queued', attempts = 0, failures = 0, not_before_ms = 0, "
                        + "lease_until_ms = 0, updated_ms = " + now + " WHERE " + jobs);
            }
        });
    }

    /**
     * Cancels queued or running jobs: each goes to the dead-letter table as "cancelled by an
     * operator" (so {@link #requeue} brings it back), and a running attempt's commit is refused
     * by the fence (the job is no longer running). Returns how many.
     */
    public int cancel(JobSelection which) throws SQLException {
        String jobs = "status IN ('queued', 'running')" + which.sql();
        return db.tx(c -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE attempts SET outcome = 'cancelled', finished_ms = " + now
                        + " WHERE outcome = 'running' AND job_id IN (SELECT job_id FROM jobs WHERE " + jobs + ")");
                s.executeUpdate("INSERT INTO dead_letter (job_id, attempts, last_error, fencing_token, dead_ms) "
                        + "SELECT job_id, attempts, 'cancelled by an operator', claim_token, " + now + " FROM jobs WHERE "
                        + jobs + " ON CONFLICT (job_id) DO NOTHING");
                return s.executeUpdate("UPDATE jobs SET status = 'dead', lease_until_ms = 0, "
                        + "last_error = 'cancelled by an operator', updated_ms = " + now + " WHERE " + jobs);
            }
        });
    }

    /** Attempts by outcome (running, committed, failed, stale, cancelled, abandoned). */
    public Map<String, Integer> attemptCounts() throws SQLException {
        return db.auto(c -> {
            Map<String, Integer> m = new LinkedHashMap<>();
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT outcome, count(*) FROM attempts GROUP BY outcome ORDER BY outcome")) {
                while (r.next()) {
                    m.put(r.getString(1), r.getInt(2));
                }
            }
            return m;
        });
    }

    // ---- The coordinator's writes, fenced by its term: CoordinatorTerms

    /** Claims of jobs and every write fenced by a claim's token. */
    public JobClaims claims() {
        return claims;
    }

    /** The coordinator's terms, its fenced writes and its log. */
    public CoordinatorTerms coordinator() {
        return coordinator;
    }

    @Override
    public void close() {
        db.close();
    }
}
