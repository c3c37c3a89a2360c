package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented takeover bound: the job of a worker killed while holding it is claimed by
 * another worker within the TTL plus one poll period (plus {@link #SLACK_MS}), measured from the
 * kill, with a coordinator requeueing expired jobs meanwhile: once with the other worker idle,
 * once with it busy with a queue of 150 jobs whose ids all come before the dead worker's job (so
 * only the "expired leases first" order, kept by the coordinator's requeue, brings it there in
 * time). Also, by the store's clock, the claim comes at most one poll after the lease lapsed.
 * And the coordinator's requeue keeps a lapsed job at the head of every claim path.
 */
@Timeout(180)
class TakeoverBoundTest {
    static final long TTL = 1500;
    static final long POLL = 200;
    /**
     * One claim statement, the workers' and the store's scheduling, and the taking worker's job in
     * progress (a 40 ms job) on a loaded 2-core machine.
     */
    static final long SLACK_MS = 700;

    @TempDir
    Path tmp;

    @Test
    void aKilledWorkersJobIsRetakenWithinTtlPlusOnePollByAnIdleWorker() throws Exception {
        retake(0);
    }

    @Test
    void aKilledWorkersJobIsRetakenWithinTtlPlusOnePollByABusyWorker() throws Exception {
        retake(150);
    }

    private void retake(int queued) throws Exception {
        String url = PgServer.newDatabase();
        long victim;
        try (Store store = Store.open(url, 2)) {
            store.submit("noop", Collections.nCopies(queued, "{\"ms\":40}"));
            victim = store.submit("noop", List.of("{\"ms\":60000}")).get(0);
        }
        String ttl = Long.toString(TTL);
        String poll = Long.toString(POLL);
        // The holder takes only the long job: its partition is that one id (mod a larger count).
        try (WorkerProcess coordinator = WorkerProcess.start(tmp, "coordinator", "coordinator", "--store", url, "--ttl-ms", ttl,
                "--period-ms", "100");
             WorkerProcess holder = WorkerProcess.start(tmp, "holder", "worker", "--store", url, "--ttl-ms", ttl,
                "--idle-poll-ms", poll, "--partition", victim + "/" + (victim + 1))) {
            holder.await("job " + victim + " \\(noop\\) claimed with token", 60_000);
            coordinator.await("elected leader, term", 60_000);
            try (WorkerProcess other = WorkerProcess.start(tmp, "other", "worker", "--store", url, "--ttl-ms", ttl,
                    "--idle-poll-ms", poll)) {
                other.await("started", 60_000);
                if (queued > 0) {
                    other.await("COMMITTED", 60_000); // busy with the queue
                } else {
                    Thread.sleep(2 * POLL); // idle, polling
                }
                long killedMs = System.currentTimeMillis();
                holder.kill();
                long leaseUntil;
                try (Store store = Store.open(url, 2); Connection c = store.db().connection(); Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT lease_until_ms FROM jobs WHERE job_id = " + victim)) {
                    r.next();
                    leaseUntil = r.getLong(1);
                }
                other.await("job " + victim + " \\(noop\\) claimed with token", TTL + POLL + SLACK_MS + 10_000);
                long retakenMs;
                int left;
                try (Store store = Store.open(url, 2); Connection c = store.db().connection(); Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT max(started_ms) FROM attempts WHERE job_id = " + victim)) {
                    r.next();
                    retakenMs = r.getLong(1);
                    left = store.unfinished(null);
                }
                long afterKill = retakenMs - killedMs;
                long afterLapse = retakenMs - leaseUntil;
                boolean requeued = coordinator.output().contains("requeued 1 expired job(s)");
                System.out.printf("takeover (%s, %d jobs queued): retaken %d ms after the kill, %d ms after the lease lapsed "
                        + "(TTL %d ms, poll %d ms); coordinator requeued it first: %s; %d jobs left then%n",
                        queued == 0 ? "idle" : "busy", queued, afterKill, afterLapse, TTL, POLL, requeued, left);
                assertTrue(afterKill <= TTL + POLL + SLACK_MS, "retaken " + afterKill + " ms after the kill:\n" + other.output());
                assertTrue(afterLapse <= POLL + SLACK_MS, "retaken " + afterLapse + " ms after the lease lapsed");
                if (queued > 0) {
                    assertTrue(left > 1, "the queue was gone before the takeover: nothing showed the expired job went first");
                }
            }
        }
    }

    /** After the coordinator requeues a lapsed job, every claim path still takes it before the queue. */
    @Test
    void aRequeuedLapsedJobStaysFirstInLine() throws Exception {
        try (Store store = Store.open(PgServer.newDatabase(), 2)) {
            store.submit("noop", Collections.nCopies(20, "{}"));
            long lapsed = store.submit("noop", List.of("{}")).get(0);
            assertEquals(lapsed, store.claims().claim(lapsed, "dead", 200, 5).id());
            Thread.sleep(400);
            long term = store.coordinator().beginTerm("coord");
            assertEquals("1 expired job(s)", store.coordinator().requeueExpired(term, "coord"));
            assertEquals(Store.QUEUED, store.job(lapsed).status());
            assertEquals(List.of(lapsed), store.claims().takeovers(64, null));
            List<Store.LeasedClaim> batch = store.claims().acquireAndClaimBatch(1, "w", 10_000, 5);
            assertEquals(1, batch.size());
            assertEquals(lapsed, batch.get(0).job().id(), "the batch claim took the queue's head first");
        }
    }
}
