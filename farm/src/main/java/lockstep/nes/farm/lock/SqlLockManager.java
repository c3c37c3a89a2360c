package lockstep.nes.farm.lock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import lockstep.nes.farm.store.Database;
import lockstep.nes.farm.store.Dialect;

/**
 * Leases as rows of the store's {@code leases} table, their expiry computed by the store's clock
 * (PostgreSQL's {@code now()}; on SQLite the one machine's clock inside SQL), so the holders' own
 * clocks never decide who holds a lock. Tokens come from one counter shared by every key (a
 * PostgreSQL sequence; on SQLite a row incremented in the acquiring transaction), so they increase
 * across every lease ever issued.
 *
 * <p>PostgreSQL: acquire is one {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE expired}
 * statement. SQLite: acquire is one {@code BEGIN IMMEDIATE} transaction (read the row, take a
 * token, write the row), which holds the file's write lock throughout.
 */
public final class SqlLockManager implements LockManager {
    private final Database db;
    private final boolean ownsDatabase;
    private final String now;

    /** @param ownsDatabase close the database with this manager */
    public SqlLockManager(Database db, boolean ownsDatabase) {
        this.db = db;
        this.ownsDatabase = ownsDatabase;
        this.now = db.nowMs();
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long ttlMs = ttl.toMillis();
        if (ttlMs <= 0) {
            throw new IllegalArgumentException("ttl must be positive");
        }
        long sent = System.nanoTime();
        try {
            Long token = db.dialect() == Dialect.POSTGRESQL ? acquirePostgres(key, owner, ttlMs) : acquireSqlite(key, owner, ttlMs);
            if (token == null) {
                return Optional.empty();
            }
            return Optional.of(new Lease(key, owner, token, ttlMs, sent + ttlMs * 1_000_000L));
        } catch (SQLException e) {
            throw new LockException(kind() + ": acquire " + key + " failed (" + e.getMessage() + ")", e);
        }
    }

    private Long acquirePostgres(String key, String owner, long ttlMs) throws SQLException {
        return db.auto(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO leases (lock_key, owner, fencing_token, expires_ms) "
                            + "VALUES (?, ?, nextval('fencing_tokens'), " + now + " + ?) "
                            + "ON CONFLICT (lock_key) DO UPDATE SET owner = EXCLUDED.owner, "
                            + "fencing_token = EXCLUDED.fencing_token, expires_ms = EXCLUDED.expires_ms "
                            + "WHERE leases.expires_ms <= " + now + " RETURNING fencing_token")) {
                ps.setString(1, key);
                ps.setString(2, owner);
                ps.setLong(3, ttlMs);
                try (ResultSet r = ps.executeQuery()) {
                    return r.next() ? r.getLong(1) : null;
                }
            }
        });
    }

    private Long acquireSqlite(String key, String owner, long ttlMs) throws SQLException {
        return db.tx(c -> {
            try (PreparedStatement q = c.prepareStatement(
                    "SELECT expires_ms > " + now + " FROM leases WHERE lock_key = ?")) {
                q.setString(1, key);
                try (ResultSet r = q.executeQuery()) {
                    if (r.next() && r.getBoolean(1)) {
                        return null;
                    }
                }
            }
            long token = nextTokenSqlite(c);
            try (PreparedStatement w = c.prepareStatement(
                    "INSERT OR REPLACE INTO leases (lock_key, owner, fencing_token, expires_ms) VALUES (?, ?, ?, " + now + " + ?)")) {
                w.setString(1, key);
                w.setString(2, owner);
                w.setLong(3, token);
                w.setLong(4, ttlMs);
                w.executeUpdate();
            }
            return token;
        });
    }

    /** The next token of SQLite's counter row (call inside a write transaction). */
    public static long nextTokenSqlite(Connection c) throws SQLException {
        try (PreparedStatement t = c.prepareStatement(
                "UPDATE fencing_tokens SET last_value = last_value + 1 WHERE id = 1 RETURNING last_value");
             ResultSet r = t.executeQuery()) {
            if (!r.next()) {
                throw new SQLException("fencing_tokens row missing");
            }
            return r.getLong(1);
        }
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        try {
            int n = db.auto(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE leases SET expires_ms = " + now + " + ? WHERE lock_key = ? AND owner = ? "
                                + "AND fencing_token = ? AND expires_ms > " + now)) {
                    ps.setLong(1, lease.ttlMillis());
                    ps.setString(2, lease.key());
                    ps.setString(3, lease.owner());
                    ps.setLong(4, lease.fencingToken());
                    return ps.executeUpdate();
                }
            });
            return n == 1 ? Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L)) : Optional.empty();
        } catch (SQLException e) {
            throw new LockException(kind() + ": renew " + lease.key() + " failed (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public void release(Lease lease) throws LockException {
        try {
            db.auto(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "DELETE FROM leases WHERE lock_key = ? AND owner = ? AND fencing_token = ?")) {
                    ps.setString(1, lease.key());
                    ps.setString(2, lease.owner());
                    ps.setLong(3, lease.fencingToken());
                    return ps.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new LockException(kind() + ": release " + lease.key() + " failed (" + e.getMessage() + ")", e);
        }
    }

    /** True when this manager keeps its leases in {@code other}'s database (same pool). */
    public boolean uses(Database other) {
        return db == other;
    }

    @Override
    public String kind() {
        return db.dialect() == Dialect.POSTGRESQL ? "postgresql" : "sqlite";
    }

    @Override
    public void close() {
        if (ownsDatabase) {
            db.close();
        }
    }
}
