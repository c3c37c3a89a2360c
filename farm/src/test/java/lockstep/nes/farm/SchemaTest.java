package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import lockstep.nes.farm.store.Database;
import lockstep.nes.farm.store.Store;
import lockstep.nes.farm.store.StoreRefusedException;
import lockstep.nes.farm.store.StoreUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's schema: only {@code farm submit} creates a store, the operators' commands never
 * write to the schema, a database holding another application's tables is refused untouched, and
 * processes starting together on a fresh database migrate it once.
 */
class SchemaTest {
    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {
    }

    private interface Command {
        int run(PrintStream out, PrintStream err);
    }

    private static Run run(Command c) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int exit = c.run(new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    private static void refused(Run r, String mention) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(mention), r.err());
    }

    private static Set<String> tables(String url) throws Exception {
        StoreUrl u = StoreUrl.parse(url);
        Set<String> out = new TreeSet<>();
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    private static void sql(String url, String statement) throws Exception {
        StoreUrl u = StoreUrl.parse(url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password()); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static Farm.WorkerArgs worker(String store) {
        Farm.WorkerArgs a = new Farm.WorkerArgs();
        a.store = store;
        a.exitWhenIdle = true;
        return a;
    }

    private static Farm.CoordinatorArgs coordinator(String store) {
        Farm.CoordinatorArgs a = new Farm.CoordinatorArgs();
        a.store = store;
        a.periods = 1;
        return a;
    }

    @Test
    void anEmptyPostgresDatabaseIsNoStoreAndStaysEmpty() throws Exception {
        String url = PgServer.newDatabase();
        refused(run((o, e) -> Farm.status(url, o, e)), "no farm store there");
        refused(run((o, e) -> Farm.report(url, false, o, e)), "no farm store there");
        refused(run((o, e) -> Farm.cancel(url, List.of("1"), false, o, e)), "no farm store there");
        refused(run((o, e) -> Farm.requeue(url, List.of(), true, false, o, e)), "no farm store there");
        refused(run((o, e) -> Farm.worker(worker(url), o, e)), "no farm store there");
        refused(run((o, e) -> Farm.coordinator(coordinator(url), o, e)), "no farm store there");
        assertEquals(Set.of(), tables(url), "a command that may not create the store wrote to the database");
        Run s = run((o, e) -> Farm.submit(url, "noop", List.of("{}"), o, e));
        assertEquals(0, s.exit(), s.err());
        assertEquals(0, run((o, e) -> Farm.status(url, o, e)).exit());
    }

    @Test
    void aDatabaseWithAnotherApplicationsTablesIsRefusedUntouched() throws Exception {
        String url = PgServer.newDatabase();
        sql(url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
        refused(run((o, e) -> Farm.status(url, o, e)), "not the farm's (invoices)");
        refused(run((o, e) -> Farm.submit(url, "noop", List.of("{}"), o, e)), "not the farm's (invoices)");
        refused(run((o, e) -> Farm.worker(worker(url), o, e)), "give the farm a database of its own");
        assertEquals(Set.of("invoices"), tables(url), "the farm wrote into another application's schema");
        StoreRefusedException x = assertThrows(StoreRefusedException.class, () -> Store.open(url, 2));
        assertTrue(x.getMessage().contains("invoices"), x.getMessage());
    }

    @Test
    void sqliteStoresAreCreatedOnlyBySubmit() throws Exception {
        Path missing = tmp.resolve("farm.db");
        refused(run((o, e) -> Farm.worker(worker(missing.toString()), o, e)), "no farm store there ('farm submit' creates one)");
        refused(run((o, e) -> Farm.coordinator(coordinator(missing.toString()), o, e)), "no farm store there");
        refused(run((o, e) -> Farm.cancel(missing.toString(), List.of("1"), false, o, e)), "no farm store there");
        assertFalse(Files.exists(missing), "a store was created");
        Path rom = Files.write(tmp.resolve("random.nes"), new byte[] {'N', 'E', 'S', 0x1a, 1, 1, 0, 0});
        refused(run((o, e) -> Farm.submit(rom.toString(), "noop", List.of("{}"), o, e)), "not a SQLite database");
        assertEquals(8, Files.size(rom), "the file was written");
        refused(run((o, e) -> Farm.worker(worker(rom.toString()), o, e)), "not a SQLite database");
    }

    @Test
    void unknownJobIdsAreNamedAndNothingChanges() throws Exception {
        String db = tmp.resolve("ops.db").toString();
        assertEquals(0, run((o, e) -> Farm.submit(db, "noop", List.of("{}", "{}"), o, e)).exit());
        refused(run((o, e) -> Farm.cancel(db, List.of("1", "99", "100"), false, o, e)), "cancel: no job 99, 100");
        refused(run((o, e) -> Farm.requeue(db, List.of("7"), false, false, o, e)), "requeue: no job 7");
        try (Store store = Store.open(db, 2)) {
            assertEquals(Store.QUEUED, store.job(1).status(), "a known id of a refused command was cancelled");
        }
    }

    @Test
    void eightProcessesStartingTogetherOnAFreshDatabaseMigrateItOnce() throws Exception {
        String url = PgServer.newDatabase();
        List<WorkerProcess> ps = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                ps.add(WorkerProcess.start(tmp, "submit" + i, "submit-noop", "--store", url, "--count", "2"));
            }
            for (WorkerProcess p : ps) {
                assertEquals(0, p.waitFor(180_000), p.output());
            }
        } finally {
            for (WorkerProcess p : ps) {
                p.close();
            }
        }
        try (Store store = Store.open(url, 2)) {
            assertEquals(Database.latestVersion(), store.db().schemaVersion());
            assertEquals(16, store.countsByStatus().get(Store.QUEUED));
        }
    }
}
