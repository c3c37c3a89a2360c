package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import lockstep.nes.farm.job.JobRunner;
import lockstep.nes.farm.lock.InMemoryLockManager;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's lease as the store sees it: the store's own expiry refuses a late commit, a job that
 * kills its worker is dead-lettered, renewals do not wait on the store, backoff holds on every
 * claim, and an expired job is taken over within its TTL plus one poll.
 */
class WorkerLeaseTest {
    /** A job that takes its worker down with it (the worker's process dies mid-job). */
    static final class WorkerDied extends Error {
        private static final long serialVersionUID = 1L;

        WorkerDied() {
            super("worker died");
        }
    }

    static final JobRunner CRASH = ctx -> {
        throw new WorkerDied();
    };

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);

    private Worker worker(Store store, LockManager locks, String owner, long ttlMillis, Map<String, JobRunner> more,
                          java.util.function.Consumer<Worker.Options> tweak) {
        Worker.Options o = new Worker.Options();
        o.ttl = Duration.ofMillis(ttlMillis);
        o.safetyMargin = Duration.ofMillis(ttlMillis / 5);
        o.owner = owner;
        o.idlePoll = Duration.ofMillis(50);
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 5;
        if (tweak != null) {
            tweak.accept(o);
        }
        return new Worker(store, locks, Farm.runners(more), o, null, out);
    }

    /** Starts {@code w.runOne()} on a thread and waits until its log says {@code what}. */
    private Thread runOneUntil(Worker w, String what) throws InterruptedException {
        Thread t = new Thread(() -> {
            try {
                w.runOne();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        while (!text().contains(what)) {
            Thread.sleep(5);
        }
        return t;
    }

    private String text() {
        return log.toString(StandardCharsets.UTF_8);
    }

    private static int results(Store store) throws Exception {
        try (Connection c = store.db().connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM results")) {
            r.next();
            return r.getInt(1);
        }
    }

    /** Paused after its last lease check, its lock lost meanwhile, nobody claiming since: no commit. */
    @Test
    void commitAfterTheLeaseExpiredIsRefusedEvenWithoutATakeover() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            long id = store.submit("noop", List.of("{\"ms\":0}")).get(0);
            InMemoryLockManager locks = new InMemoryLockManager();
            Worker w = worker(store, locks, "zombie", 600, Map.of(), o -> o.pauseBeforeCommitMillis = 1500);
            Thread t = runOneUntil(w, "committing with token");
            locks.fail("lock server unreachable"); // the lease can no longer be renewed
            t.join(10_000);
            assertEquals(0, results(store), text());
            assertEquals(1, w.staleCommits(), text());
            assertEquals(Store.RUNNING, store.job(id).status());
        }
    }

    /** A job that kills its worker every time: after maxAbandoned claims it is dead-lettered. */
    @Test
    void crashLoopingJobIsDeadLettered() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            long id = store.submit("crash", List.of("{}")).get(0);
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            long end = System.nanoTime() + 15_000_000_000L;
            for (int i = 0; !Store.DEAD.equals(store.job(id).status()); i++) {
                assertTrue(System.nanoTime() - end < 0, "still " + store.job(id).status() + " after " + store.job(id).attempts()
                        + " attempts:\n" + text());
                Worker w = worker(store, locks, "w" + i, 400, Map.of("crash", CRASH), o -> o.maxAbandoned = 3);
                try {
                    w.runOne();
                } catch (WorkerDied e) {
                    // as if the process had died: its lease is left to expire
                }
                Thread.sleep(100);
            }
            assertEquals(3, store.job(id).attempts());
            assertEquals(List.of(id), store.deadLetters().stream().map(Store.DeadLetter::jobId).toList());
            assertTrue(store.deadLetters().get(0).lastError().contains("abandoned"), store.deadLetters().get(0).lastError());
            Map<String, Integer> attempts = store.attemptCounts();
            assertEquals(3, attempts.get("abandoned"), attempts.toString());
            assertNull(attempts.get("failed"), attempts.toString());
        }
    }

    /** A store row locked for 2.5 s does not delay the lock's renewal, so the job survives. */
    @Test
    void renewalDoesNotWaitForTheStore() throws Exception {
        try (Store store = Store.open(PgServer.newDatabase(), 4)) {
            long id = store.submit("noop", List.of("{\"ms\":4000}")).get(0);
            InMemoryLockManager locks = new InMemoryLockManager();
            Worker w = worker(store, locks, "w", 3000, Map.of(), null);
            Thread t = runOneUntil(w, "claimed with token");
            try (Connection c = store.db().connection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT * FROM jobs WHERE job_id = " + id + " FOR UPDATE").close();
                    Thread.sleep(2500);
                }
                c.commit();
            }
            t.join(15_000);
            assertEquals(1, w.committed(), text());
            assertEquals(Store.DONE, store.job(id).status());
        }
    }

    /** A job backing off after a failure cannot be claimed early, whoever listed it before. */
    @Test
    void everyClaimWaitsForTheBackoff() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            long id = store.submit("noop", List.of("{}")).get(0);
            List<Long> listedBefore = store.claims().candidates(64, null);
            assertEquals(List.of(id), listedBefore);
            Store.Job a = store.claims().claim(id, "A", 10_000, 5);
            assertEquals(Store.FailOutcome.RETRY, store.claims().fail(id, a.claimToken(), "A", "boom", 5, 3_000));
            assertNull(store.claims().claim(id, "B", 10_000, 5), "claimed during its backoff");
            assertTrue(store.claims().candidates(64, null).isEmpty());
            assertEquals(1, store.job(id).attempts());
        }
    }

    /**
     * A partition worker that dies leaves its job to any lease worker within the TTL plus one
     * poll, even while that worker is busy with a long queue.
     */
    @Test
    void expiredJobIsTakenOverWithinTtlAndOnePoll() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            long id = store.submit("crash", List.of("{}")).get(0);
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            Worker dying = worker(store, locks, "dying", 500, Map.of("crash", CRASH),
                    o -> o.partition = new Store.Partition(0, 1));
            assertThrows(WorkerDied.class, dying::runOne);
            long claimedAt = System.nanoTime();
            store.submit("noop", Collections.nCopies(100, "{\"ms\":40}"));
            Worker busy = worker(store, locks, "busy", 500, Map.of("crash", (JobRunner) ctx -> {
                throw new lockstep.nes.farm.job.JobFailure("crashed again");
            }), null);
            long takenAt = 0;
            long end = claimedAt + 10_000_000_000L;
            while (takenAt == 0 && System.nanoTime() - end < 0) {
                busy.runOne();
                if (store.job(id).attempts() >= 2) {
                    takenAt = System.nanoTime();
                }
            }
            assertTrue(takenAt != 0, "never taken over");
            long ms = (takenAt - claimedAt) / 1_000_000L;
            // TTL 500 ms + poll 50 ms + one 40 ms job in progress + scheduling slack
            assertTrue(ms < 1_200, "taken over " + ms + " ms after its claim (TTL 500 ms)");
        }
    }
}
