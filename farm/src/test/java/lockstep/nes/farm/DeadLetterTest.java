package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lockstep.nes.farm.job.JobContext;
import lockstep.nes.farm.lock.KillSwitch;
import lockstep.nes.farm.lock.KilledException;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only a job's own failures dead-letter it at {@code --max-attempts}: abandoned claims (kills,
 * pauses) have their own larger bound, a worker that cannot run a job gives it back uncharged,
 * a store outage while checkpointing is no failure, a stopping worker (SIGTERM) releases its claim,
 * and a bad {@code --safety-margin} is refused before anything is claimed.
 */
class DeadLetterTest {
    @TempDir
    Path tmp;

    private static void sql(Store store, String statement) throws Exception {
        try (var c = store.db().connection(); Statement s = c.createStatement()) {
            s.executeUpdate(statement);
        }
    }

    private static Map<String, Integer> outcomes(Store store) throws Exception {
        return store.attemptCounts();
    }

    @Test
    void abandonedClaimsHaveTheirOwnLargerBound() throws Exception {
        try (Store store = Store.open(tmp.resolve("f.db").toString(), 2)) {
            store.maxAbandoned(8);
            long id = store.submit("noop", List.of("{}")).get(0);
            for (int i = 0; i < 8; i++) {
                assertNotNull(store.claims().claim(id, "w" + i, 60_000, 3), "claim " + (i + 1) + " refused after " + i + " abandoned");
                sql(store, "UPDATE jobs SET lease_until_ms = 0"); // its worker was killed: the lease lapses
            }
            assertNull(store.claims().claim(id, "w9", 60_000, 3), "a ninth abandoned claim");
            assertEquals(1, store.claims().buryExhausted(3));
            String error = store.deadLetters().get(0).lastError();
            assertTrue(error.contains("8 claim(s), 0 failed, 8 abandoned"), error);
        }
    }

    @Test
    void failuresOfTheJobStillDeadLetterAtMaxAttempts() throws Exception {
        try (Store store = Store.open(tmp.resolve("f.db").toString(), 2)) {
            long id = store.submit("noop", List.of("{}")).get(0);
            // an abandoned claim between failures does not count as one
            store.claims().claim(id, "killed", 60_000, 2);
            sql(store, "UPDATE jobs SET lease_until_ms = 0");
            Store.Job a = store.claims().claim(id, "a", 60_000, 2);
            assertEquals(Store.FailOutcome.RETRY, store.claims().fail(id, a.claimToken(), "a", "boom", 2, 0));
            Store.Job b = store.claims().claim(id, "b", 60_000, 2);
            assertEquals(Store.FailOutcome.DEAD, store.claims().fail(id, b.claimToken(), "b", "boom again", 2, 0));
        }
    }

    @Test
    void aWorkerThatCannotRunAJobGivesItBackUncharged() throws Exception {
        try (Store store = Store.open(tmp.resolve("f.db").toString(), 2)) {
            long id = store.submit("mystery", List.of("{}")).get(0);
            Worker.Options o = new Worker.Options();
            o.maxAttempts = 1;
            o.owner = "misconfigured";
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            Worker w = new Worker(store, new SqlLockManager(store.db(), false), Farm.runners(Map.of()), o, null,
                    new PrintStream(log, true, StandardCharsets.UTF_8));
            for (int i = 0; i < 5; i++) {
                assertTrue(w.runOne(), log.toString(StandardCharsets.UTF_8));
                assertTrue(w.runOne() == false, "claimed again before the delay");
                sql(store, "UPDATE jobs SET not_before_ms = 0");
            }
            Store.Job j = store.job(id);
            assertEquals(Store.QUEUED, j.status());
            assertEquals(0, j.attempts());
            assertTrue(store.deadLetters().isEmpty());
            assertEquals(Map.of("released", 5), outcomes(store));
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("RELEASED uncharged (this worker cannot run it: "
                    + "this worker cannot run jobs of kind 'mystery')"), log.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aStoreOutageWhileCheckpointingStopsTheAttemptWithoutAFailure() throws Exception {
        Store store = Store.open(tmp.resolve("f.db").toString(), 2);
        long id = store.submit("noop", List.of("{}")).get(0);
        Store.Job j = store.claims().claim(id, "w", 60_000, 5);
        JobContext ctx = new JobContext(store, j, j.claimToken(), "w", new KillSwitch());
        store.close(); // the store goes away
        KilledException e = assertThrows(KilledException.class, () -> ctx.checkpoint(10, new byte[] {1}));
        assertTrue(e.getMessage().contains("store unavailable"), e.getMessage());
    }

    @Test
    void sigtermReleasesTheRunningClaimUncharged() throws Exception {
        String url = tmp.resolve("term.db").toString();
        try (Store store = Store.open(url, 2)) {
            store.submit("noop", List.of("{\"ms\":60000}"));
        }
        try (WorkerProcess w = WorkerProcess.start(tmp, "w", "worker", "--store", url, "--ttl-ms", "30000")) {
            w.await("job 1 \\(noop\\) claimed", 60_000);
            w.signal("TERM");
            w.waitFor(30_000);
            assertTrue(w.output().contains("job 1 RELEASED uncharged (its worker stopped)"), w.output());
        }
        try (Store store = Store.open(url, 2)) {
            Store.Job j = store.job(1);
            assertEquals(Store.QUEUED, j.status(), "the claim was left running until its lease expired");
            assertEquals(0, j.attempts(), "the stopped worker's claim was charged");
            assertNotNull(store.claims().claim(1, "next", 60_000, 5), "another worker cannot take it at once");
        }
    }

    @Test
    void aNegativeSafetyMarginIsRefusedBeforeAnythingIsClaimed() throws Exception {
        String url = tmp.resolve("m.db").toString();
        try (Store store = Store.open(url, 2)) {
            store.submit("noop", List.of("{}"));
        }
        Farm.WorkerArgs a = new Farm.WorkerArgs();
        a.store = url;
        a.marginMillis = -5L;
        a.exitWhenIdle = true;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, Farm.worker(a, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--safety-margin must be at least 0"), err.toString(StandardCharsets.UTF_8));
        try (Store store = Store.open(url, 2)) {
            assertEquals(0, store.job(1).attempts(), "a job was claimed");
        }
    }
}
