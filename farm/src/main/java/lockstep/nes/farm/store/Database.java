package lockstep.nes.farm.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;

/**
 * A connection pool on one store (PostgreSQL or a SQLite file), its Flyway migrations and a
 * transaction helper that retries what the database says is safe to retry (serialization
 * failures, deadlocks, a busy SQLite file).
 *
 * <p>SQLite: every connection uses WAL mode (readers do not block the writer), a busy timeout
 * (a process waits for another's write instead of failing) and {@code BEGIN IMMEDIATE}
 * transactions (the write lock is taken at the start, so two read-then-write transactions can
 * never deadlock on the upgrade).
 */
public final class Database implements AutoCloseable {
    /** The highest {@code V<n>} among the migrations in {@code lockstep/nes/farm/store/<dialect>/}. */
    private static final int LATEST_VERSION = 3;

    private final StoreUrl url;
    private final HikariDataSource pool;
    private final HikariConfig config;

    /** A transaction body. */
    @FunctionalInterface
    public interface Body<T> {
        T run(Connection c) throws SQLException;
    }

    private Database(StoreUrl url, HikariDataSource pool, HikariConfig config) {
        this.url = url;
        this.pool = pool;
        this.config = config;
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
        // one attempt at start: refused credentials are reported at once, not after the pool's
        // connection timeout of retries
        cfg.setInitializationFailTimeout(1);
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
        if (url.dialect() == Dialect.POSTGRESQL) {
            loginOnce(url, cfg);
        }
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(cfg);
        } catch (RuntimeException e) {
            String state = sqlState(e);
            if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
                // 28xxx: the server refused the user or password; 3D000: no such database
                throw new StoreRefusedException("cannot open " + url + ": " + rootMessage(e));
            }
            throw new SQLException("cannot open " + url + " (" + rootMessage(e) + ")", e);
        }
        Database db = new Database(url, ds, cfg);
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

    /**
     * One login with the pool's settings, before the pool exists: refused credentials (SQL
     * state 28xxx) or a missing database (3D000) are a {@link StoreRefusedException} at once.
     * The pool's own first attempt would add its pause of a second after a failed connection,
     * and its retries, to the refusal.
     */
    private static void loginOnce(StoreUrl url, HikariConfig cfg) throws SQLException {
        java.util.Properties props = new java.util.Properties();
        props.putAll(cfg.getDataSourceProperties());
        if (cfg.getUsername() != null) {
            props.setProperty("user", cfg.getUsername());
        }
        if (cfg.getPassword() != null) {
            props.setProperty("password", cfg.getPassword());
        }
        try (Connection c = new org.postgresql.Driver().connect(url.jdbcUrl(), props)) {
            if (c == null) {
                throw new SQLException("cannot open " + url + ": not a PostgreSQL JDBC URL");
            }
        } catch (SQLException e) {
            String state = e.getSQLState();
            if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
                throw new StoreRefusedException("cannot open " + url + ": " + rootMessage(e));
            }
            throw new SQLException("cannot connect to " + url + " (" + rootMessage(e) + ")", e);
        }
    }

    /** The SQL state of the first SQLException in {@code e}'s causes, or null. */
    static String sqlState(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException se && se.getSQLState() != null) {
                return se.getSQLState();
            }
        }
        return null;
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

    /**
     * Runs one insert, update or delete on {@code c} with {@code args} bound in order (numbers,
     * strings, byte arrays); returns the rows it changed.
     */
    public static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
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
        try (HikariDataSource ds = migrationPool()) {
            MigrationInfo current = flyway(ds).info().current();
            return current == null || current.getVersion() == null ? 0 : Integer.parseInt(current.getVersion().getVersion());
        } catch (FlywayException | NumberFormatException e) {
            throw new SQLException(url + ": cannot read the schema version (" + rootMessage(e) + ")", e);
        }
    }

    /** The newest schema version this build knows (the highest {@code V<n>} of the migrations). */
    public static int latestVersion() {
        return LATEST_VERSION;
    }

    /** The tables of the farm's schema, with Flyway's history: anything else belongs to someone else. */
    private static final java.util.Set<String> FARM_TABLES = java.util.Set.of("jobs", "attempts", "results", "dead_letter",
            "checkpoints", "leases", "fencing_tokens", "coordinator", "coordinator_log", "nightly_runs", "flyway_schema_history",
            "schema_version");

    /**
     * The key of the PostgreSQL advisory lock held while a store is inspected and migrated, so
     * that processes starting together on a fresh database see it either empty or fully migrated
     * (Flyway's own lock covers its migrations, not the look at the schema before them).
     */
    private static final long MIGRATION_LOCK = 0x6c6f636b73746570L; // "lockstep"

    /** {@link #prepare(SchemaAccess)} with {@link SchemaAccess#CREATE}. */
    public void migrate() throws SQLException {
        prepare(SchemaAccess.CREATE);
    }

    /**
     * Checks the store and, as {@code access} allows, creates or migrates its schema with Flyway
     * (migrations: resources {@code lockstep/nes/farm/store/<dialect>/V<n>__<name>.sql}). A
     * database that holds tables other than the farm's is refused, never baselined: the farm's
     * migrations would be skipped and another application's schema written into. A store migrated
     * before Flyway (the farm's tables at version 1, no history table) is baselined at version 1.
     * On PostgreSQL the look and the migration run under one advisory lock, so several processes
     * starting on a fresh database migrate once; on SQLite two processes creating one file at once
     * can collide, and the loser tries again and finds the schema there. A store newer than this
     * build is refused.
     */
    public void prepare(SchemaAccess access) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try (HikariDataSource ds = migrationPool(); Connection lock = ds.getConnection()) {
                boolean pgLock = dialect() == Dialect.POSTGRESQL && access != SchemaAccess.READ;
                if (pgLock) {
                    lockMigrations(lock);
                }
                try {
                    prepareLocked(lock, ds, access);
                } finally {
                    if (pgLock) {
                        try (PreparedStatement ps = lock.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                            ps.setLong(1, MIGRATION_LOCK);
                            ps.execute();
                        }
                    }
                }
                return;
            } catch (FlywayException e) {
                if (attempt >= 3 || dialect() == Dialect.POSTGRESQL) {
                    throw new SQLException(url + ": migration failed (" + rootMessage(e) + ")", e);
                }
            } catch (StoreRefusedException e) {
                throw e;
            } catch (SQLException e) {
                if (attempt >= 3 || dialect() == Dialect.POSTGRESQL || !retryable(e)) {
                    throw new SQLException(url + ": cannot read the schema (" + rootMessage(e) + ")", e);
                }
            }
        }
    }

    /** How long a process waits for another's migration before it gives up. */
    private static final long MIGRATION_WAIT_MS = 300_000;

    /**
     * Takes the migration lock, polling: a blocking {@code pg_advisory_lock} would wait inside one
     * statement and meet the connection's socket timeout while another process migrates.
     */
    private void lockMigrations(Connection c) throws SQLException {
        long end = System.nanoTime() + MIGRATION_WAIT_MS * 1_000_000L;
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, MIGRATION_LOCK);
            while (true) {
                try (java.sql.ResultSet r = ps.executeQuery()) {
                    r.next();
                    if (r.getBoolean(1)) {
                        return;
                    }
                }
                if (System.nanoTime() - end > 0) {
                    throw new SQLException(url + ": another process has held the store's migration lock for "
                            + MIGRATION_WAIT_MS / 1000 + " s");
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while waiting for the store's migration lock");
                }
            }
        }
    }

    private void prepareLocked(Connection c, HikariDataSource ds, SchemaAccess access) throws SQLException {
        java.util.Set<String> tables = tables(c);
        java.util.List<String> foreign = tables.stream().filter(t -> !FARM_TABLES.contains(t)).sorted().toList();
        if (!foreign.isEmpty()) {
            throw new StoreRefusedException(url + ": the database holds tables that are not the farm's ("
                    + String.join(", ", foreign.subList(0, Math.min(5, foreign.size()))) + (foreign.size() > 5 ? ", ..." : "")
                    + "); give the farm a database of its own");
        }
        if (tables.isEmpty() || !tables.contains("jobs")) {
            if (access != SchemaAccess.CREATE) {
                throw new StoreRefusedException(url + ": no farm store there ('farm submit' creates one)");
            }
        }
        Flyway flyway = flyway(ds);
        boolean history = tables.contains("flyway_schema_history");
        if (access == SchemaAccess.READ) {
            int v = history ? version(flyway) : 1;
            if (v != LATEST_VERSION) {
                throw new StoreRefusedException(url + ": the store's schema is version " + v + ", this build reads version "
                        + LATEST_VERSION + (v < LATEST_VERSION ? " ('farm worker' or 'farm submit' migrates it)" : " (use a newer lockstep)"));
            }
            return;
        }
        if (history && version(flyway) > LATEST_VERSION) {
            throw new StoreRefusedException(url + ": schema version " + version(flyway) + " is newer than this build knows ("
                    + LATEST_VERSION + "); use a newer lockstep");
        }
        if (!history && tables.contains("jobs")) {
            flyway.baseline();
        }
        flyway.migrate();
    }

    private static int version(Flyway flyway) {
        MigrationInfo current = flyway.info().current();
        return current == null || current.getVersion() == null ? 0 : Integer.parseInt(current.getVersion().getVersion());
    }

    /** The tables of the connection's schema (PostgreSQL: its current schema), lower case. */
    private java.util.Set<String> tables(Connection c) throws SQLException {
        String sql = dialect() == Dialect.POSTGRESQL
                ? "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                : "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'";
        java.util.Set<String> out = new java.util.HashSet<>();
        try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getString(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        return out;
    }

    /**
     * A small pool of its own for Flyway, with the store's settings: Flyway holds its lock on one
     * connection while it migrates on another, which the workers' pool (often two) cannot spare.
     */
    private HikariDataSource migrationPool() throws SQLException {
        HikariConfig cfg = new HikariConfig();
        config.copyStateTo(cfg);
        cfg.setPoolName(config.getPoolName() + "-migrate");
        cfg.setMaximumPoolSize(5); // the look under the advisory lock, and Flyway's lock and migration
        cfg.setMinimumIdle(0);
        try {
            return new HikariDataSource(cfg);
        } catch (RuntimeException e) {
            throw new SQLException("cannot open " + url + " (" + rootMessage(e) + ")", e);
        }
    }

    private Flyway flyway(HikariDataSource ds) {
        return Flyway.configure(Database.class.getClassLoader())
                .dataSource(ds)
                .locations("classpath:lockstep/nes/farm/store/" + dialect().folder())
                .baselineOnMigrate(false)
                .baselineVersion("1")
                .baselineDescription("farm (migrated before Flyway)")
                .load();
    }

    @Override
    public void close() {
        pool.close();
    }
}
