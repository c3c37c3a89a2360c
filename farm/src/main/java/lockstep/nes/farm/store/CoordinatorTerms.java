package lockstep.nes.farm.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The coordinator's side of the store: terms issued from the store's own counter (never twice,
 * whatever a lock server forgot), writes fenced by the current term and its leader, and the log
 * of those writes. See docs/design/farm.md.
 */
public final class CoordinatorTerms {
    private final Database db;
    /** The store's clock as SQL (milliseconds). */
    private final String now;

    CoordinatorTerms(Database db, String now) {
        this.db = db;
        this.now = now;
    }

    /** A write the coordinator makes inside its fenced transaction; returns a note for the log. */
    @FunctionalInterface
    public interface CoordinatorWrite {
        String run(Connection c) throws SQLException;
    }

    /**
     * Starts a new coordinator term for {@code leader}: the store's counter moves on by one, so a
     * term is never issued twice (whatever the lock server forgot in a restart), and from now on
     * only this term may write. Call it once after winning the election, while the lease is held.
     */
    public long beginTerm(String leader) throws SQLException {
        return db.tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE coordinator SET term = term + 1, leader = ?, updated_ms = "
                    + now + " WHERE id = 1")) {
                ps.setString(1, leader);
                ps.executeUpdate();
            }
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT term FROM coordinator WHERE id = 1")) {
                r.next();
                return r.getLong(1);
            }
        });
    }

    /** How many of the newest coordinator_log entries are kept. */
    public static final int LOG_KEPT = 10_000;

    /**
     * Runs {@code write} only if {@code term} (from {@link #beginTerm}) is still the store's
     * current term and was issued to {@code leader}: {@code SELECT ... FOR UPDATE} of the
     * coordinator row, then the write and a log line, in one transaction. Null (nothing written)
     * when a newer term has begun.
     */
    public String coordinatorWrite(long term, String leader, String action, CoordinatorWrite write) throws SQLException {
        return db.tx(c -> {
            // The row lock orders this write against a concurrent beginTerm (SQLite: the write lock).
            if (Database.update(c, "UPDATE coordinator SET updated_ms = " + now + " WHERE id = 1 AND term = ? AND leader = ?",
                    term, leader) == 0) {
                return null;
            }
            String note = write.run(c);
            Database.update(c, "INSERT INTO coordinator_log (term, leader, action, at_ms) VALUES (?, ?, ?, " + now + ")",
                    term, leader, note == null ? action : action + ": " + note);
            // the log keeps its newest entries only: a leader writes every period, for ever
            Database.update(c, "DELETE FROM coordinator_log WHERE entry_id <= (SELECT max(entry_id) FROM coordinator_log) - ?",
                    LOG_KEPT);
            return note == null ? "" : note;
        });
    }

    /** Requeues running jobs whose lease hint expired (fenced by term); null when stale. */
    public String requeueExpired(long term, String leader) throws SQLException {
        return coordinatorWrite(term, leader, "requeue", c -> {
            try (Statement s = c.createStatement()) {
                int n = s.executeUpdate("UPDATE jobs SET status = 'queued', updated_ms = " + now
                        + " WHERE status = 'running' AND lease_until_ms <= " + now);
                return n + " expired job(s)";
            }
        });
    }

    /**
     * Marks run {@code date} (a run's name; the nightly run is named by its date) finished when
     * none of its jobs is queued or running, with the counts of its own jobs only (fenced by
     * term); returns null when stale.
     */
    public String markNightlyRun(long term, String leader, String date) throws SQLException {
        return coordinatorWrite(term, leader, "mark-run", c -> {
            int done;
            int dead;
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT sum(CASE WHEN status = 'done' THEN 1 ELSE 0 END), sum(CASE WHEN status = 'dead' THEN 1 ELSE 0 END), "
                            + "sum(CASE WHEN status IN ('queued', 'running') THEN 1 ELSE 0 END) FROM jobs WHERE run_name = '"
                            + date.replace("'", "''") + "'")) {
                r.next();
                if (r.getInt(3) > 0) {
                    return "run " + date + " not finished (" + r.getInt(3) + " job(s) left)";
                }
                done = r.getInt(1);
                dead = r.getInt(2);
            }
            Database.update(c, "INSERT INTO nightly_runs (run_date, term, leader, jobs_done, jobs_dead, marked_ms) "
                    + "VALUES (?, ?, ?, ?, ?, " + now + ") ON CONFLICT (run_date) DO UPDATE SET "
                    + "term = excluded.term, leader = excluded.leader, jobs_done = excluded.jobs_done, "
                    + "jobs_dead = excluded.jobs_dead, marked_ms = excluded.marked_ms", date, term, leader, done, dead);
            return "run " + date + " finished: " + done + " done, " + dead + " dead";
        });
    }

    /** Runs whose jobs have all finished and which are not marked finished yet. */
    public List<String> finishedUnmarkedRuns() throws SQLException {
        return db.auto(c -> {
            List<String> out = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT run_name FROM jobs GROUP BY run_name "
                    + "HAVING sum(CASE WHEN status IN ('queued', 'running') THEN 1 ELSE 0 END) = 0 "
                    + "AND run_name NOT IN (SELECT run_date FROM nightly_runs) ORDER BY run_name")) {
                while (r.next()) {
                    out.add(r.getString(1));
                }
            }
            return out;
        });
    }

    /** The coordinator term the store last accepted, and its leader. */
    public record Term(long term, String leader) {
    }

    public Term coordinatorTerm() throws SQLException {
        return db.auto(c -> {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT term, leader FROM coordinator WHERE id = 1")) {
                r.next();
                return new Term(r.getLong(1), r.getString(2));
            }
        });
    }

    /** The coordinator log's terms in write order (to check they never go back). */
    public List<long[]> coordinatorLogTerms() throws SQLException {
        return db.auto(c -> {
            List<long[]> out = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT entry_id, term FROM coordinator_log ORDER BY entry_id")) {
                while (r.next()) {
                    out.add(new long[] {r.getLong(1), r.getLong(2)});
                }
            }
            return out;
        });
    }
}
