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
import lockstep.nes.farm.lock.SqlLockManager;

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
 * {@code done} with the committing token as {@code last_fencing_token}.
 */
public final class Store implements AutoCloseable {
    /** A job row. */
    public record Job(long id, String kind, String spec, String status, int attempts, long claimToken,
                      long lastFencingToken, String lastError) {
    }

    /** What {@link #fail} did. */
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
    private final boolean pg;
    private final CoordinatorTerms coordinator;
    /** Claims of a job that may end without an outcome (abandoned) before it is dead-lettered. */
    private volatile int maxAbandoned = DEFAULT_MAX_ABANDONED;

    /** The default bound on abandoned claims: well above the failures' (kills and pauses are not the job's fault). */
    public static final int DEFAULT_MAX_ABANDONED = 10;

    /** Sets the bound on abandoned claims (at least 1) that claims and {@link #buryExhausted} use. */
    public void maxAbandoned(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("max abandoned claims must be at least 1");
        }
        maxAbandoned = n;
    }

    /** The claim bounds: fewer than {@code maxFailures} failures, and fewer than the bound of abandoned claims. */
    private String bounds(String t, int maxFailures) {
        return t + "failures < " + maxFailures + " AND " + t + "attempts - " + t + "failures < " + maxAbandoned;
    }

    public Store(Database db) {
        this.db = db;
        this.now = db.nowMs();
        this.coordinator = new CoordinatorTerms(db, now);
        this.pg = db.dialect() == Dialect.POSTGRESQL;
        this.fence = " WHERE job_id = ? AND claim_token = ? AND claim_owner = ? AND last_fencing_token < ? "
                + "AND status = 'running' AND lease_until_ms > " + now;
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

    // ---- Claiming

    /**
     * A job that may be claimed now, by the store's clock: queued and past its backoff, or running
     * with an expired lease (its holder stopped renewing). Every claim path uses this condition,
     * so none can skip a backoff or take a live lease.
     */
    private String claimable(String table) {
        String t = table.isEmpty() ? "" : table + ".";
        return "((" + t + "status = 'queued' AND " + t + "not_before_ms <= " + now + ") OR (" + t + "status = 'running' AND "
                + t + "lease_until_ms <= " + now + "))";
    }

    /** Up to {@code limit} ids of claimable jobs, in the partition if one is given. */
    public List<Long> candidates(int limit, Partition p) throws SQLException {
        return ids("SELECT job_id FROM jobs WHERE " + claimable("") + (p == null ? "" : p.sql())
                + " ORDER BY job_id LIMIT " + limit);
    }

    private List<Long> ids(String sql) throws SQLException {
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

    /**
     * Up to {@code limit} ids of jobs whose holder's lease expired, in the partition if one is
     * given: running ones, and those the coordinator has queued again (their {@code
     * lease_until_ms} is still the lapsed lease's; a failure, a release or an operator's requeue
     * sets it to 0). A worker tries these before other queued jobs, so a job whose holder died is
     * taken over within its TTL plus one poll, however long the queue, whether or not the
     * coordinator got to it first.
     */
    public List<Long> takeovers(int limit, Partition p) throws SQLException {
        return ids("SELECT job_id FROM jobs WHERE " + TAKEOVER.replace("NOW", now)
                + (p == null ? "" : p.sql()) + " ORDER BY job_id LIMIT " + limit);
    }

    /** A job whose holder's lease lapsed (see {@link #takeovers}); NOW stands for the store's clock. */
    private static final String TAKEOVER = "((status = 'running' AND lease_until_ms <= NOW) "
            + "OR (status = 'queued' AND lease_until_ms > 0 AND not_before_ms <= NOW))";

    /** The next token of the store's counter. */
    public long nextToken() throws SQLException {
        if (pg) {
            return db.auto(c -> {
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT nextval('fencing_tokens')")) {
                    r.next();
                    return r.getLong(1);
                }
            });
        }
        return db.tx(SqlLockManager::nextTokenSqlite);
    }

    /**
     * Marks a claimable job running under a fresh token from the store's own counter, with its
     * lease expiring {@code ttlMs} from now by the store's clock, and records the attempt (a
     * previous attempt still marked running was abandoned: its worker died or lost the lease).
     * The token comes from the store, not from the lock manager, so a lock server that restarts
     * empty cannot hand out a token the store has already seen. Null when the job is not
     * claimable (finished, held under a live lease, backing off, or out of attempts: see {@link
     * #buryExhausted}).
     */
    public Job claim(long jobId, String owner, long ttlMs, int maxAttempts) throws SQLException {
        return db.tx(c -> {
            long token = pg ? nextval(c) : SqlLockManager.nextTokenSqlite(c);
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET status = 'running', attempts = attempts + 1, "
                    + "claim_token = ?, claim_owner = ?, lease_until_ms = " + now + " + ?, updated_ms = " + now
                    + " WHERE job_id = ? AND claim_token < ? AND " + bounds("", maxAttempts) + " AND " + claimable(""))) {
                ps.setLong(1, token);
                ps.setString(2, owner);
                ps.setLong(3, ttlMs);
                ps.setLong(4, jobId);
                ps.setLong(5, token);
                if (ps.executeUpdate() == 0) {
                    return null;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE attempts SET outcome = 'abandoned', finished_ms = " + now
                    + " WHERE job_id = ? AND outcome = 'running'")) {
                ps.setLong(1, jobId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO attempts (job_id, fencing_token, owner, started_ms) VALUES (?, ?, ?, " + now + ")")) {
                ps.setLong(1, jobId);
                ps.setLong(2, token);
                ps.setString(3, owner);
                ps.executeUpdate();
            }
            return find(c, jobId);
        });
    }

    private static long nextval(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT nextval('fencing_tokens')")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * Moves every claimable job that has used up its {@code maxAttempts} claims to the
     * dead-letter table: a job that kills its worker (or keeps losing its lease) never reaches
     * {@link #fail}, and claims skip it once its attempts are spent. Its last attempt is marked
     * abandoned. Returns the number of jobs moved.
     */
    public int buryExhausted(int maxAttempts) throws SQLException {
        String which = " FROM jobs WHERE " + claimable("") + " AND NOT (" + bounds("", maxAttempts) + ")";
        return db.tx(c -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE attempts SET outcome = 'abandoned', finished_ms = " + now
                        + " WHERE outcome = 'running' AND job_id IN (SELECT job_id" + which + ")");
                s.executeUpdate("INSERT INTO dead_letter (job_id, attempts, last_error, fencing_token, dead_ms) "
                        + "SELECT job_id, attempts, " + ABANDONED_ERROR + ", claim_token, " + now + which
                        + " ON CONFLICT (job_id) DO NOTHING");
                return s.executeUpdate("UPDATE jobs SET status = 'dead', lease_until_ms = 0, last_error = "
                        + ABANDONED_ERROR + ", updated_ms = " + now + " WHERE job_id IN (SELECT job_id" + which + ")");
            }
        });
    }

    private static final String ABANDONED_ERROR = "COALESCE(last_error || '; ', '') || 'out of attempts after ' "
            + "|| attempts || ' claim(s), ' || failures || ' failed, ' || (attempts - failures) "
            + "|| ' abandoned (their worker died, was paused past its lease or stopped)'";

    /** A job claimed together with its lease; {@code job} is null when the lease was taken but the job is finished. */
    public record LeasedClaim(lockstep.nes.farm.lock.Lease lease, Job job) {
    }

    /** True when this store's own lease table can be claimed from in one statement (PostgreSQL). */
    public boolean combinedClaim() {
        return pg;
    }

    /**
     * The common table {@code l}: for each row of {@code j}, the lease row {@code key} (SQL over
     * {@code j}'s columns) with a fresh token from the sequence, owner and TTL bound as the next
     * two parameters, taken only where it is free or expired (as {@link SqlLockManager#tryAcquire}
     * does); returns {@code returning} of each lease taken.
     */
    private String takeLeases(String key, String returning) {
        return "l AS (INSERT INTO leases (lock_key, owner, fencing_token, expires_ms) "
                + "SELECT " + key + ", ?, nextval('fencing_tokens'), " + now + " + ? FROM j "
                + "ON CONFLICT (lock_key) DO UPDATE SET owner = EXCLUDED.owner, "
                + "fencing_token = EXCLUDED.fencing_token, expires_ms = EXCLUDED.expires_ms "
                + "WHERE leases.expires_ms <= " + now + " RETURNING " + returning + ")";
    }

    /**
     * PostgreSQL: takes the job's lease row (as {@link SqlLockManager#tryAcquire} does) and claims
     * the job with its token in one statement, one round trip instead of two. Null when the
     * lease is held by someone else (or the job is finished).
     */
    public LeasedClaim acquireAndClaim(long jobId, String key, String owner, long ttlMs, int maxAttempts)
            throws SQLException {
        if (!pg) {
            throw new IllegalStateException("combined claim is PostgreSQL only");
        }
        long sent = System.nanoTime();
        return db.auto(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "WITH j AS (SELECT job_id FROM jobs WHERE job_id = ? AND " + bounds("", maxAttempts) + " AND "
                            + claimable("") + "), "
                            + takeLeases("?", "fencing_token") + ", "
                            + "c AS (UPDATE jobs SET status = 'running', attempts = attempts + 1, "
                            + "claim_token = (SELECT fencing_token FROM l), claim_owner = ?, lease_until_ms = " + now
                            + " + ?, updated_ms = " + now
                            + " WHERE job_id = ? AND claim_token < (SELECT fencing_token FROM l) AND " + claimable("")
                            + "RETURNING job_id, kind, spec, status, attempts, claim_token, last_fencing_token, last_error), "
                            + "o AS (UPDATE attempts SET outcome = 'abandoned', finished_ms = " + now
                            + " WHERE job_id = ? AND outcome = 'running' AND EXISTS (SELECT 1 FROM c)), "
                            + "a AS (INSERT INTO attempts (job_id, fencing_token, owner, started_ms) "
                            + "SELECT job_id, claim_token, ?, " + now + " FROM c) "
                            + "SELECT (SELECT fencing_token FROM l) AS lease_token, c.* FROM (SELECT 1) AS one LEFT JOIN c ON true")) {
                ps.setLong(1, jobId);
                ps.setString(2, key);
                ps.setString(3, owner);
                ps.setLong(4, ttlMs);
                ps.setString(5, owner);
                ps.setLong(6, ttlMs);
                ps.setLong(7, jobId);
                ps.setLong(8, jobId);
                ps.setString(9, owner);
                try (ResultSet r = ps.executeQuery()) {
                    if (!r.next()) {
                        return null;
                    }
                    long token = r.getLong("lease_token");
                    if (r.wasNull()) {
                        return null;
                    }
                    lockstep.nes.farm.lock.Lease lease = new lockstep.nes.farm.lock.Lease(key, owner, token, ttlMs,
                            sent + ttlMs * 1_000_000L);
                    r.getLong("job_id");
                    return new LeasedClaim(lease, r.wasNull() ? null : job(r));
                }
            }
        });
    }

    /**
     * PostgreSQL: claims up to {@code limit} claimable jobs in one statement, each under its own
     * lease row {@code job:<id>} with its own fresh token from the sequence (as {@link
     * #acquireAndClaim} does for one job). Candidates are picked with {@code FOR UPDATE SKIP
     * LOCKED}, so concurrent workers take different jobs instead of all racing for the lowest
     * ids; a job whose lease row is still held by someone else is left alone. A returned claim
     * whose {@code job} is null took a lease but no job: release it.
     */
    public List<LeasedClaim> acquireAndClaimBatch(int limit, String owner, long ttlMs, int maxAttempts)
            throws SQLException {
        if (!pg) {
            throw new IllegalStateException("combined claim is PostgreSQL only");
        }
        long sent = System.nanoTime();
        return db.auto(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "WITH j AS (SELECT job_id FROM jobs WHERE " + claimable("") + " AND " + bounds("", maxAttempts) + " "
                            // a live lease row (its holder, or one just releasing it) would only waste a slot of
                            // the batch, and with a batch of one stall every worker on the lowest such job
                            + "AND NOT EXISTS (SELECT 1 FROM leases WHERE lock_key = 'job:' || jobs.job_id "
                            + "AND expires_ms > " + now + ") "
                            // lapsed leases first (see takeovers), then the queue in order
                            + "ORDER BY CASE WHEN " + TAKEOVER.replace("NOW", now) + " THEN 0 ELSE 1 END, job_id "
                            + "LIMIT ? FOR UPDATE SKIP LOCKED), "
                            + takeLeases("'job:' || job_id", "lock_key, fencing_token") + ", "
                            + "lj AS (SELECT j.job_id, l.fencing_token FROM j JOIN l ON l.lock_key = 'job:' || j.job_id), "
                            + "c AS (UPDATE jobs SET status = 'running', attempts = attempts + 1, "
                            + "claim_token = lj.fencing_token, claim_owner = ?, lease_until_ms = " + now + " + ?, updated_ms = " + now
                            + " FROM lj WHERE jobs.job_id = lj.job_id AND jobs.claim_token < lj.fencing_token "
                            + "AND jobs.status IN ('queued', 'running') "
                            + "RETURNING jobs.job_id, jobs.kind, jobs.spec, jobs.status, jobs.attempts, jobs.claim_token, "
                            + "jobs.last_fencing_token, jobs.last_error), "
                            + "o AS (UPDATE attempts SET outcome = 'abandoned', finished_ms = " + now
                            + " WHERE job_id IN (SELECT job_id FROM c) AND outcome = 'running'), "
                            + "a AS (INSERT INTO attempts (job_id, fencing_token, owner, started_ms) "
                            + "SELECT job_id, claim_token, ?, " + now + " FROM c) "
                            + "SELECT l.lock_key, l.fencing_token AS lease_token, c.* FROM l "
                            + "LEFT JOIN c ON c.claim_token = l.fencing_token ORDER BY l.fencing_token")) {
                ps.setInt(1, limit);
                ps.setString(2, owner);
                ps.setLong(3, ttlMs);
                ps.setString(4, owner);
                ps.setLong(5, ttlMs);
                ps.setString(6, owner);
                List<LeasedClaim> out = new ArrayList<>();
                try (ResultSet r = ps.executeQuery()) {
                    while (r.next()) {
                        lockstep.nes.farm.lock.Lease lease = new lockstep.nes.farm.lock.Lease(r.getString("lock_key"), owner,
                                r.getLong("lease_token"), ttlMs, sent + ttlMs * 1_000_000L);
                        r.getLong("job_id");
                        out.add(new LeasedClaim(lease, r.wasNull() ? null : job(r)));
                    }
                }
                return out;
            }
        });
    }

    /**
     * Moves the store's expiry of a job held under {@code token} to {@code ttlMs} from now (after a
     * renewal of its lock); false when the lease had already expired by the store's clock or the
     * job was claimed again: an expired lease stays expired.
     */
    public boolean extendLease(long jobId, long token, long ttlMs) throws SQLException {
        return db.auto(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET lease_until_ms = " + now
                    + " + ? WHERE job_id = ? AND claim_token = ? AND status = 'running' AND lease_until_ms > " + now)) {
                ps.setLong(1, ttlMs);
                ps.setLong(2, jobId);
                ps.setLong(3, token);
                return ps.executeUpdate() == 1;
            }
        });
    }

    // ---- Fenced writes

    /**
     * The fence of every write for a job: the token is the newest claim's, no newer write was made,
     * and the claim's lease is still live by the store's clock (an expired lease writes nothing,
     * even when nobody has claimed the job since).
     */
    private final String fence;

    /**
     * Commits the result of the attempt holding {@code token}: {@code UPDATE jobs SET status =
     * 'done', last_fencing_token = :token WHERE job_id = :id AND last_fencing_token < :token ...},
     * then the result row, in one transaction. False when 0 rows changed (a newer token holds or
     * finished the job): nothing is written, and the caller must treat its attempt as failed.
     */
    public boolean commit(long jobId, long token, String owner, String resultStatus, String resultJson) throws SQLException {
        return commit(jobId, token, owner, resultStatus, resultJson, null);
    }

    /**
     * {@link #commit(long, long, String, String, String)}, and on PostgreSQL, when {@code lease}
     * (a row of this store's {@code leases} table) is given, deletes that lease row in the same
     * statement if and only if the commit succeeded: the release costs no round trip of its own.
     * A rejected commit leaves the lease alone (the caller releases it as usual).
     */
    public boolean commit(long jobId, long token, String owner, String resultStatus, String resultJson,
                          lockstep.nes.farm.lock.Lease lease) throws SQLException {
        String update = "UPDATE jobs SET status = 'done', last_fencing_token = ?, lease_until_ms = 0, last_error = NULL, "
                + "updated_ms = " + now + fence;
        if (pg) {
            return db.auto(c -> {
                try (PreparedStatement ps = c.prepareStatement("WITH u AS (" + update + " RETURNING job_id), "
                        + "r AS (INSERT INTO results (job_id, status, result, fencing_token, owner, committed_ms) "
                        + "SELECT job_id, ?, ?, ?, ?, " + now + " FROM u), "
                        + "a AS (UPDATE attempts SET outcome = 'committed', finished_ms = " + now
                        + " WHERE job_id IN (SELECT job_id FROM u) AND fencing_token = ?)"
                        + (lease == null ? "" : ", d AS (DELETE FROM leases WHERE lock_key = ? AND owner = ? "
                        + "AND fencing_token = ? AND EXISTS (SELECT 1 FROM u))")
                        + " SELECT count(*) FROM u")) {
                    int i = fence(ps, 1, jobId, token, owner);
                    ps.setString(i++, resultStatus);
                    ps.setString(i++, resultJson);
                    ps.setLong(i++, token);
                    ps.setString(i++, owner);
                    ps.setLong(i++, token);
                    if (lease != null) {
                        ps.setString(i++, lease.key());
                        ps.setString(i++, lease.owner());
                        ps.setLong(i, lease.fencingToken());
                    }
                    try (ResultSet r = ps.executeQuery()) {
                        r.next();
                        return r.getInt(1) == 1;
                    }
                }
            });
        }
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement(update)) {
                fence(ps, 1, jobId, token, owner);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO results (job_id, status, result, fencing_token, owner, "
                    + "committed_ms) VALUES (?, ?, ?, ?, ?, " + now + ")")) {
                ps.setLong(1, jobId);
                ps.setString(2, resultStatus);
                ps.setString(3, resultJson);
                ps.setLong(4, token);
                ps.setString(5, owner);
                ps.executeUpdate();
            }
            attemptOutcome(c, jobId, token, "committed", null);
            return true;
        });
    }

    /** Binds {@code SET last_fencing_token = ?} and the {@link #fence}'s parameters from {@code i}; returns the next index. */
    private static int fence(PreparedStatement ps, int i, long jobId, long token, String owner) throws SQLException {
        ps.setLong(i++, token);
        return fenceWhere(ps, i, jobId, token, owner);
    }

    /** Binds the {@link #fence}'s own parameters from {@code i}; returns the next index. */
    private static int fenceWhere(PreparedStatement ps, int i, long jobId, long token, String owner) throws SQLException {
        ps.setLong(i++, jobId);
        ps.setLong(i++, token);
        ps.setString(i++, owner);
        ps.setLong(i++, token);
        return i;
    }

    /**
     * Records a failed attempt (fenced like a commit): queued again after {@code retryDelayMs},
     * or, when it has had {@code maxAttempts} attempts, moved to the dead-letter table with its
     * last error.
     */
    public FailOutcome fail(long jobId, long token, String owner, String error, int maxAttempts, long retryDelayMs)
            throws SQLException {
        String err = error == null ? "unknown error" : error.length() > 4000 ? error.substring(0, 4000) : error;
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET status = CASE WHEN failures + 1 >= ? THEN 'dead' "
                    + "ELSE 'queued' END, failures = failures + 1, last_error = ?, not_before_ms = " + now + " + ?, lease_until_ms = 0, "
                    + "last_fencing_token = ?, updated_ms = " + now + fence)) {
                ps.setInt(1, maxAttempts);
                ps.setString(2, err);
                ps.setLong(3, retryDelayMs);
                fence(ps, 4, jobId, token, owner);
                if (ps.executeUpdate() == 0) {
                    return FailOutcome.STALE;
                }
            }
            attemptOutcome(c, jobId, token, "failed", err);
            Job j = find(c, jobId);
            if (DEAD.equals(j.status())) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO dead_letter (job_id, attempts, last_error, "
                        + "fencing_token, dead_ms) VALUES (?, ?, ?, ?, " + now + ")")) {
                    ps.setLong(1, jobId);
                    ps.setInt(2, j.attempts());
                    ps.setString(3, err);
                    ps.setLong(4, token);
                    ps.executeUpdate();
                }
                return FailOutcome.DEAD;
            }
            return FailOutcome.RETRY;
        });
    }

    /**
     * Gives a claim back uncharged (fenced like a commit): the job is queued again after {@code
     * delayMs} with this claim not counted, and the attempt recorded as {@code released} with the
     * reason. For a worker that cannot run the job or is stopping: neither is the job's failure.
     * False when the fence refused it (nothing written).
     */
    public boolean release(long jobId, long token, String owner, String reason, long delayMs) throws SQLException {
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET status = 'queued', attempts = attempts - 1, "
                    + "not_before_ms = " + now + " + ?, lease_until_ms = 0, last_fencing_token = ?, updated_ms = " + now + fence)) {
                ps.setLong(1, delayMs);
                fence(ps, 2, jobId, token, owner);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            attemptOutcome(c, jobId, token, "released", reason);
            return true;
        });
    }

    /** Records how an attempt ended when nothing else may be written (stale or cancelled); not fenced. */
    public void attemptEnded(long jobId, long token, String outcome, String error) throws SQLException {
        db.auto(c -> {
            attemptOutcome(c, jobId, token, outcome, error);
            return null;
        });
    }

    private void attemptOutcome(Connection c, long jobId, long token, String outcome, String error) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE attempts SET outcome = ?, error = ?, finished_ms = " + now
                + " WHERE job_id = ? AND fencing_token = ?")) {
            ps.setString(1, outcome);
            ps.setString(2, error);
            ps.setLong(3, jobId);
            ps.setLong(4, token);
            ps.executeUpdate();
        }
    }

    /**
     * Stores a checkpoint under {@code token}, fenced like a result: false (nothing written) when
     * a newer token holds the job or the job is no longer running.
     */
    public boolean saveCheckpoint(long jobId, long token, String owner, int frame, byte[] data) throws SQLException {
        return db.tx(c -> {
            // The fence, and a row lock that orders this write against a concurrent claim.
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET updated_ms = " + now + fence)) {
                fenceWhere(ps, 1, jobId, token, owner);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            return Database.update(c, "INSERT INTO checkpoints (job_id, frame, data, fencing_token, written_ms) "
                    + "VALUES (?, ?, ?, ?, " + now + ") ON CONFLICT (job_id) DO UPDATE SET frame = excluded.frame, "
                    + "data = excluded.data, fencing_token = excluded.fencing_token, written_ms = excluded.written_ms "
                    + "WHERE checkpoints.fencing_token <= excluded.fencing_token", jobId, frame, data, token) == 1;
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

    private static Job find(Connection c, long jobId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, kind, spec, status, attempts, claim_token, "
                + "last_fencing_token, last_error FROM jobs WHERE job_id = ?")) {
            ps.setLong(1, jobId);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? job(r) : null;
            }
        }
    }

    private static Job job(ResultSet r) throws SQLException {
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

    /** The ids among {@code ids} that name no job, in the order given. */
    public List<Long> unknown(List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return List.of();
        }
        java.util.Set<Long> known = new java.util.HashSet<>(ids("SELECT job_id FROM jobs WHERE 1 = 1"
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

    /** The coordinator's terms, its fenced writes and its log. */
    public CoordinatorTerms coordinator() {
        return coordinator;
    }

    @Override
    public void close() {
        db.close();
    }
}
