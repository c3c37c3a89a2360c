package lockstep.nes.farm.store;

/** The SQL that differs between the two stores. */
public enum Dialect {
    POSTGRESQL("(EXTRACT(EPOCH FROM now()) * 1000)::bigint"),
    SQLITE("CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)");

    /**
     * The store's clock in epoch milliseconds, as an SQL expression: PostgreSQL's {@code now()}
     * (the server's clock, the same for every worker), SQLite's {@code julianday('now')} (the one
     * machine's clock).
     */
    public final String nowMs;

    Dialect(String nowMs) {
        this.nowMs = nowMs;
    }

    /** The migration folder name. */
    public String folder() {
        return this == POSTGRESQL ? "postgresql" : "sqlite";
    }
}
