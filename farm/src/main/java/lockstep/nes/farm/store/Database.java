package lockstep.nes.farm.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection pool on one store (PostgreSQL or a SQLite file), its versioned migrations and a
 * transaction helper that retries what the database says is safe to retry (serialization
 * failures, deadlocks, a busy SQLite file).
 *
 * <p>SQLite: every connection uses WAL mode (readers do not block the writer), a busy timeout
 * (a process waits for another's write instead of failing) and {@code BEGIN IMMEDIATE}
 * transactions (the write lock is taken at the start, so two read-then-write transactions can
 * never deadlock on the upgrade).
 */
public final class Database implements AutoCloseable {
    /** The migrations in order: version n is resource {@code <dialect>/V<n>__<name>.sql}. */
    static final String[] MIGRATIONS = {"farm"};
    /** The key of PostgreSQL's advisory lock held while migrating. */
    private static final long MIGRATION_LOCK = 0x6C6F636B73746570L;

    private final StoreUrl url;
    private final HikariDataSource pool;

    /** A transaction body. */
    @FunctionalInterface
    public interface Body<T> {
        T run(Connection c) throws SQLException;
    }

    private Database(StoreUrl url, HikariDataSource pool) {
        this.url = url;
        this.pool = pool;
    }

    /** Opens a pool of at most {@code poolSize} connections; does not migrate. */
    public static Database open(StoreUrl url, int poolSize) throws SQLException {
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(url.jdbcUrl());
        cfg.setDriverClassName(url.dialect() == Dialect.POSTGRESQL ? "org.postgresql.Driver" : "org.sqlite.JDBC");
        cfg.setMaximumPoolSize(poolSize);
        cfg.setMinimumIdle(1);
        cfg.setPoolName("farm-" + url.dialect().folder());
        cfg.setConnectionTimeout(10_000);
        cfg.setInitializationFailTimeout(-1);
        if (url.dialect() == Dialect.POSTGRESQL) {
            if (url.user() != null) {
                cfg.setUsername(url.user());
            }
            if (url.password() != null) {
                cfg.setPassword(url.password());
            }
            // A database that stops answering must fail a renewal quickly, never hang it.
            cfg.addDataSourceProperty("connectTimeout", "5");
            cfg.addDataSourceProperty("socketTimeout", "10");
            cfg.addDataSourceProperty("loginTimeout", "5");
            cfg.addDataSourceProperty("tcpKeepAlive", "true");
            cfg.addDataSourceProperty("ApplicationName", "lockstep-farm");
        } else {
            cfg.addDataSourceProperty("journal_mode", "WAL");
            cfg.addDataSourceProperty("busy_timeout", "30000");
            cfg.addDataSourceProperty("transaction_mode", "IMMEDIATE");
            cfg.addDataSourceProperty("synchronous", "NORMAL");
        }
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(cfg);
        } catch (RuntimeException e) {
            throw new SQLException("cannot open " + url + " (" + rootMessage(e) + ")", e);
        }
        Database db = new Database(url, ds);
        try (Connection c = ds.getConnection()) {
            if (!c.isValid(5)) {
                throw new SQLException("connection not valid");
            }
        } catch (SQLException e) {
            ds.close();
            throw new SQLException("cannot connect to " + url + " (" + rootMessage(e) + ")", e);
        }
        return db;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() != null ? t.getMessage() : t.toString();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    public Dialect dialect() {
        return url.dialect();
    }

    public StoreUrl url() {
        return url;
    }

    /** The store's clock expression (epoch ms) for this dialect. */
    public String nowMs() {
        return url.dialect().nowMs;
    }

    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /** Runs {@code body} in one transaction, retrying it (from the start) on a retryable failure. */
    public <T> T tx(Body<T> body) throws SQLException {
        int attempt = 0;
        while (true) {
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                try {
                    T r = body.run(c);
                    c.commit();
                    return r;
                } catch (SQLException | RuntimeException e) {
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // the connection is broken; the pool will drop it
                    }
                    if (!(e instanceof SQLException se) || !retryable(se) || ++attempt >= 8) {
                        throw e;
                    }
                } finally {
                    try {
                        c.setAutoCommit(true);
                    } catch (SQLException ignored) {
                        // broken connection
                    }
                }
            }
            try {
                Thread.sleep(2L << attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while retrying a transaction");
            }
        }
    }

    /** Runs {@code body} on an autocommit connection (one statement = one transaction). */
    public <T> T auto(Body<T> body) throws SQLException {
        try (Connection c = pool.getConnection()) {
            return body.run(c);
        }
    }

    boolean retryable(SQLException e) {
        String state = e.getSQLState();
        if (dialect() == Dialect.POSTGRESQL) {
            return "40001".equals(state) || "40P01".equals(state);
        }
        int code = e.getErrorCode() & 0xFF;
        return code == 5 || code == 6; // SQLITE_BUSY, SQLITE_LOCKED
    }

    /** The schema version the store is at (0 before the first migration). */
    public int schemaVersion() throws SQLException {
        return auto(c -> {
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
                r.next();
                return r.getInt(1);
            } catch (SQLException e) {
                return 0;
            }
        });
    }

    /** The newest schema version this build knows. */
    public static int latestVersion() {
        return MIGRATIONS.length;
    }

    /**
     * Brings the schema to the latest version, under a lock (PostgreSQL's advisory lock, SQLite's
     * write lock) so several workers starting together migrate once. A store newer than this
     * build is an error.
     */
    public void migrate() throws SQLException {
        tx(c -> {
            try (Statement s = c.createStatement()) {
                if (dialect() == Dialect.POSTGRESQL) {
                    s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
                }
                s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                        + "description TEXT NOT NULL, applied_ms BIGINT NOT NULL)");
                int current;
                try (ResultSet r = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
                    r.next();
                    current = r.getInt(1);
                }
                if (current > MIGRATIONS.length) {
                    throw new SQLException(url + ": schema version " + current + " is newer than this build knows ("
                            + MIGRATIONS.length + "); use a newer lockstep");
                }
                for (int v = current + 1; v <= MIGRATIONS.length; v++) {
                    String name = "V" + v + "__" + MIGRATIONS[v - 1] + ".sql";
                    for (String sql : statements(read(dialect().folder() + "/" + name))) {
                        s.execute(sql);
                    }
                    s.execute("INSERT INTO schema_version (version, description, applied_ms) VALUES (" + v + ", '"
                            + MIGRATIONS[v - 1] + "', " + nowMs() + ")");
                }
            }
            return null;
        });
    }

    private static String read(String resource) throws SQLException {
        try (InputStream in = Database.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new SQLException("missing migration resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SQLException("cannot read migration " + resource, e);
        }
    }

    /** Splits a migration into statements: {@code ;} at a line's end ends one; {@code --} lines are comments. */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (String line : script.split("\\R")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("--")) {
                continue;
            }
            sb.append(line).append('\n');
            if (t.endsWith(";")) {
                String sql = sb.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                sb.setLength(0);
            }
        }
        if (!sb.toString().isBlank()) {
            out.add(sb.toString().strip());
        }
        return out;
    }

    @Override
    public void close() {
        pool.close();
    }
}
