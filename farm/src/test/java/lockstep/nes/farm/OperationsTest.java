package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An operator's commands: requeue, cancel, runs as named batches, the report's columns and JSON. */
class OperationsTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    private final PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

    private String take() {
        String s = out.toString(StandardCharsets.UTF_8);
        out.reset();
        return s;
    }

    @Test
    void requeueCancelRunsAndReport() throws Exception {
        String db = tmp.resolve("farm.db").toString();
        assertEquals(0, Farm.submit(db, "noop", List.of("{\"rom\":\"a.nes\"}", "{\"rom\":\"b.nes\"}"), "nightly-1", o, e));
        assertEquals(0, Farm.submit(db, "noop", List.of("{\"rom\":\"c.nes\"}"), "adhoc", o, e));
        assertTrue(take().contains("submitted 1 noop job(s): id 3"));
        try (Store store = Store.open(db, 2)) {
            // Job 1 commits, job 2 fails into the dead letters, job 3 is cancelled while running.
            Store.Job j1 = store.claims().claim(1, "w", 60_000, 5);
            assertTrue(store.claims().commit(1, j1.claimToken(), "w", "pass", "{}"));
            Store.Job j2 = store.claims().claim(2, "w", 60_000, 1);
            assertEquals(Store.FailOutcome.DEAD, store.claims().fail(2, j2.claimToken(), "w", "boom", 1, 0));
            Store.Job j3 = store.claims().claim(3, "w", 60_000, 5);
            assertEquals(0, Farm.cancel(db, List.of("3"), false, o, e));
            assertEquals("cancelled 1 job(s)\n", take());
            assertFalse(store.claims().commit(3, j3.claimToken(), "w", "pass", "{}"), "a cancelled job committed");

            // The run's mark counts only its own jobs.
            long term = store.coordinator().beginTerm("c");
            assertEquals(List.of("adhoc", "nightly-1"), store.coordinator().finishedUnmarkedRuns());
            assertEquals("run nightly-1 finished: 1 done, 1 dead", store.coordinator().markNightlyRun(term, "c", "nightly-1"));
            assertEquals(List.of("adhoc"), store.coordinator().finishedUnmarkedRuns());

            // The report, per run, as a table and as JSON.
            assertEquals(0, Farm.report(db, "nightly-1", false, o, e));
            String table = take();
            assertTrue(table.contains("a.nes") && table.contains("b.nes") && !table.contains("c.nes"), table);
            assertTrue(table.lines().findFirst().orElseThrow().matches(
                    "job\\s+run\\s+kind\\s+outcome\\s+attempts\\s+failed/aband\\s+token\\s+duration\\s+rom\\s*"), table);
            assertEquals(0, Farm.report(db, null, true, o, e));
            JsonNode jobs = new ObjectMapper().readTree(take()).get("jobs");
            assertEquals(3, jobs.size());
            assertEquals("pass", jobs.get(0).get("outcome").asText());
            assertEquals("a.nes", jobs.get(0).get("rom").asText());
            assertEquals(j1.claimToken(), jobs.get(0).get("fencing_token").asLong());
            assertTrue(jobs.get(0).get("duration_ms").asLong() >= 0);
            assertEquals("dead", jobs.get(1).get("outcome").asText());
            assertEquals(1, jobs.get(1).get("failed_attempts").asInt());
            assertEquals("cancelled", jobs.get(2).get("outcome").asText());
            assertEquals("adhoc", jobs.get(2).get("run").asText());

            // Requeue: the dead letters (failed and cancelled) by --all; a pass is never requeued.
            assertEquals(0, Farm.requeue(db, List.of(), true, true, o, e));
            assertEquals("requeued 2 job(s)\n", take());
            assertEquals(Store.QUEUED, store.job(2).status());
            assertEquals(0, store.job(2).attempts());
            assertEquals(Store.QUEUED, store.job(3).status());
            assertEquals(Store.DONE, store.job(1).status());
            assertTrue(store.deadLetters().isEmpty());
            assertNotNull(store.claims().claim(2, "w", 60_000, 1), "a requeued job has its attempts back");

            // Bad input: one line, exit 2.
            assertEquals(2, Farm.requeue(db, List.of("x"), false, false, o, e));
            assertEquals(2, Farm.cancel(db, List.of(), false, o, e));
            assertEquals(2, err.toString(StandardCharsets.UTF_8).lines().count(), err.toString(StandardCharsets.UTF_8));
        }
    }

    /** Submitting a run twice adds only the jobs it does not have yet. */
    @Test
    void aSecondSubmitToARunAddsOnlyNewJobs() throws Exception {
        String db = tmp.resolve("twice.db").toString();
        assertEquals(0, Farm.submit(db, "noop", List.of("{\"rom\":\"a.nes\"}", "{\"rom\":\"b.nes\"}"), "n1", o, e));
        take();
        assertEquals(0, Farm.submit(db, "noop", List.of("{\"rom\":\"b.nes\"}", "{\"rom\":\"c.nes\"}"), "n1", o, e));
        assertTrue(take().contains("submitted 1 noop job(s): id 3 (1 already in run n1, not added again)"));
        assertEquals(0, Farm.submit(db, "noop", List.of("{\"rom\":\"a.nes\"}"), "n2", o, e), "another run takes it again");
        try (Store store = Store.open(db, 2)) {
            assertEquals(4, store.report().size());
        }
    }

    /** The coordinator's log keeps its newest entries only: a leader writes every period, for ever. */
    @Test
    void theCoordinatorLogIsPruned() throws Exception {
        try (Store store = Store.open(tmp.resolve("log.db").toString(), 2)) {
            try (var c = store.db().connection(); var ps = c.prepareStatement(
                    "INSERT INTO coordinator_log (term, leader, action, at_ms) VALUES (1, 'old', 'requeue', 0)")) {
                for (int i = 0; i < lockstep.nes.farm.store.CoordinatorTerms.LOG_KEPT + 50; i++) {
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            long term = store.coordinator().beginTerm("c");
            assertNotNull(store.coordinator().requeueExpired(term, "c"));
            try (var c = store.db().connection(); var st = c.createStatement();
                 var r = st.executeQuery("SELECT count(*), max(term) FROM coordinator_log")) {
                r.next();
                assertEquals(lockstep.nes.farm.store.CoordinatorTerms.LOG_KEPT, r.getInt(1));
                assertEquals(term, r.getLong(2));
            }
        }
    }
}
