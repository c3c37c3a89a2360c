package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import lockstep.nes.farm.lock.LeaderElection;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two coordinators on PostgreSQL: never two leaders at once, and a deposed leader cannot write. */
class CoordinatorTest {
    @TempDir
    Path tmp;

    @Test
    void neverTwoLeaders() throws Exception {
        String url = PgServer.newDatabase();
        try (Store store = Store.open(url, 6)) {
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            Duration ttl = Duration.ofMillis(600);
            Duration margin = Duration.ofMillis(100);
            LeaderElection[] e = new LeaderElection[2];
            e[0] = LeaderElection.start(locks, Coordinator.KEY, "a", ttl, margin, null, null);
            e[1] = LeaderElection.start(locks, Coordinator.KEY, "b", ttl, margin, null, null);
            AtomicBoolean run = new AtomicBoolean(true);
            AtomicInteger both = new AtomicInteger();
            AtomicInteger samples = new AtomicInteger();
            AtomicInteger aLead = new AtomicInteger();
            AtomicInteger bLead = new AtomicInteger();
            Thread sampler = new Thread(() -> {
                while (run.get()) {
                    boolean a = e[0].isLeader();
                    boolean b = e[1].isLeader();
                    if (a && b) {
                        both.incrementAndGet();
                    }
                    (a ? aLead : b ? bLead : samples).incrementAndGet();
                    samples.incrementAndGet();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException x) {
                        return;
                    }
                }
            });
            sampler.start();
            Random random = new Random(7);
            long prevTerm = 0;
            for (int round = 0; round < 6; round++) {
                Thread.sleep(400 + random.nextInt(400));
                int leader = e[0].isLeader() ? 0 : e[1].isLeader() ? 1 : -1;
                if (leader < 0) {
                    continue;
                }
                if (leader >= 0) {
                    long term = e[leader].term();
                    assertTrue(term > prevTerm, "terms increase");
                    prevTerm = term;
                    // The leader steps down (closing releases its lease); the other must take over
                    // before the old one campaigns again.
                    e[leader].close();
                    assertTrue(e[1 - leader].awaitLeadership(Duration.ofSeconds(10)), "no takeover");
                    e[leader] = LeaderElection.start(locks, Coordinator.KEY, leader == 0 ? "a" + round : "b" + round, ttl,
                            margin, null, null);
                }
            }
            run.set(false);
            sampler.join();
            e[0].close();
            e[1].close();
            assertEquals(0, both.get(), "two leaders at once in " + both.get() + " of " + samples.get() + " samples");
            assertTrue(aLead.get() > 0 && bLead.get() > 0, "both candidates led at some point");
        }
    }

    @Test
    void deposedLeaderCannotWrite() throws Exception {
        deposedLeaderCannotWrite(tmp, PgServer.newDatabase());
    }

    /**
     * Two coordinator processes on {@code url} (and the lock manager {@code locks} gives, else the
     * store): the leader is SIGSTOPped inside its pause before a write, the other is elected under
     * a greater store term and writes, and the old leader's write, once resumed, is refused.
     */
    static void deposedLeaderCannotWrite(Path tmp, String url, String... locks) throws Exception {
        try (Store created = Store.open(url, 1)) { // only farm submit (here: the test) creates a store
            created.unfinished(null);
        }
        String[] common = concat(new String[] {"coordinator", "--store", url, "--ttl-ms", "1500", "--margin-ms", "300",
            "--period-ms", "100"}, locks);
        try (WorkerProcess a = WorkerProcess.start(tmp, "ca", concat(common, "--pause-before-write-ms", "1200"))) {
            long termA = Long.parseLong(a.await("elected leader, term (\\d+)", 60_000));
            a.await("term " + termA + ": requeued", 30_000);
            try (WorkerProcess b = WorkerProcess.start(tmp, "cb", common)) {
                b.await("started, campaigning", 60_000);
                // Catch A inside its pause before a write, and hold it there past its TTL.
                int before = count(a.output(), "writing with term " + termA);
                while (count(a.output(), "writing with term " + termA) == before) {
                    Thread.sleep(5);
                }
                a.stop();
                long termB = Long.parseLong(b.await("elected leader, term (\\d+)", 30_000));
                b.await("term " + termB + ": requeued", 30_000);
                assertTrue(termB > termA);
                a.resume();
                a.await("write REJECTED: term " + termA + " is stale", 30_000);
                Thread.sleep(500);
                try (Store store = Store.open(url, 2)) {
                    List<long[]> log = store.coordinator().coordinatorLogTerms();
                    long last = 0;
                    for (long[] row : log) {
                        assertTrue(row[1] >= last, "a write of term " + row[1] + " after one of term " + last);
                        last = row[1];
                    }
                    assertEquals(termB, store.coordinator().coordinatorTerm().term());
                }
                assertFalse(b.output().contains("REJECTED"), b.output());
            }
        }
    }

    private static int count(String s, String what) {
        return s.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
