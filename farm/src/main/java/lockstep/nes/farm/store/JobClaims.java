package lockstep.nes.farm.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.farm.lock.SqlLockManager;

/**
 * Claims of the store's jobs and the writes fenced by a claim (checkpoint, result, failure,
 * release). A claim takes a fresh token from the store's own counter and records it in {@code
 * jobs.claim_token}, with the lease's expiry by the store's clock in {@code jobs.lease_until_ms};
 * every later write for the job carries exactly that token and owner, and changes a row only
 * while the lease is live by the store's clock (see {@link Store}).
 */
public final class JobClaims {
    private final Database db;
    private final String now;
    private final boolean pg;
    /**
     * The fence of every write for a job: the token is the newest claim's, no newer write was made,
     * and the claim's lease is still live by the store's clock (an expired lease writes nothing,
     * even when nobody has claimed the job since).
     */
    private final String fence;
    /** Claims of a job that may end without an outcome (abandoned) before it is dead-lettered. */
    private volatile int maxAbandoned = Store.DEFAULT_MAX_ABANDONED;

    JobClaims(Database db) {
        this.db = db;
        this.now = db.nowMs();
        this.pg = db.dialect() == Dialect.POSTGRESQL;
        this.fence = " WHERE job_id = ? AND claim_token = ? AND claim_owner = ? AND last_fencing_token < ? "
                + "AND status = 'running' AND lease_until_ms > " + now;
    }

    /** Sets the bound on abandoned claims (at least 1) that claims and {@link #buryExhausted} use. */
    void maxAbandoned(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("max abandoned claims must be at least 1");
        }
        maxAbandoned = n;
    }

    /** The claim bounds: fewer than {@code maxFailures} failures, and fewer than the bound of abandoned claims. */
    private String bounds(String t, int maxFailures) {
        return t + "failures < " + maxFailures + " AND " + t + "attempts - " + t + "failures < " + maxAbandoned;
    }

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
    public List<Long> candidates(int limit, Store.Partition p) throws SQLException {
        return Store.ids(db, "SELECT job_id FROM jobs WHERE " + claimable("") + (p == null ? "" : p.sql())
                + " ORDER BY job_id LIMIT " + limit);
    }

    /**
     * Up to {@code limit} ids of jobs whose holder's lease expired, in the partition if one is
     * given: running ones, and those the coordinator has queued again (their {@code
     * lease_until_ms} is still the lapsed lease's; a failure, a release or an operator's requeue
     * sets it to 0). A worker tries these before other queued jobs, so a job whose holder died is
     * taken over within its TTL plus one poll, however long the queue, whether or not the
     * coordinator got to it first.
     */
    public List<Long> takeovers(int limit, Store.Partition p) throws SQLException {
        return Store.ids(db, "SELECT job_id FROM jobs WHERE " + TAKEOVER.replace("NOW", now)
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
    public Store.Job claim(long jobId, String owner, long ttlMs, int maxAttempts) throws SQLException {
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
            return Store.find(c, jobId);
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
    public Store.LeasedClaim acquireAndClaim(long jobId, String key, String owner, long ttlMs, int maxAttempts)
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
                    return new Store.LeasedClaim(lease, r.wasNull() ? null : Store.job(r));
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
    public List<Store.LeasedClaim> acquireAndClaimBatch(int limit, String owner, long ttlMs, int maxAttempts)
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
                List<Store.LeasedClaim> out = new ArrayList<>();
                try (ResultSet r = ps.executeQuery()) {
                    while (r.next()) {
                        lockstep.nes.farm.lock.Lease lease = new lockstep.nes.farm.lock.Lease(r.getString("lock_key"), owner,
                                r.getLong("lease_token"), ttlMs, sent + ttlMs * 1_000_000L);
                        r.getLong("job_id");
                        out.add(new Store.LeasedClaim(lease, r.wasNull() ? null : Store.job(r)));
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
    public Store.FailOutcome fail(long jobId, long token, String owner, String error, int maxAttempts, long retryDelayMs)
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
                    return Store.FailOutcome.STALE;
                }
            }
            attemptOutcome(c, jobId, token, "failed", err);
            Store.Job j = Store.find(c, jobId);
            if (Store.DEAD.equals(j.status())) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO dead_letter (job_id, attempts, last_error, "
                        + "fencing_token, dead_ms) VALUES (?, ?, ?, ?, " + now + ")")) {
                    ps.setLong(1, jobId);
                    ps.setInt(2, j.attempts());
                    ps.setString(3, err);
                    ps.setLong(4, token);
                    ps.executeUpdate();
                }
                return Store.FailOutcome.DEAD;
            }
            return Store.FailOutcome.RETRY;
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
}
