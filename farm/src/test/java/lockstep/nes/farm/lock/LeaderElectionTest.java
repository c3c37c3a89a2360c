package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LeaderElectionTest {
    static final Duration TTL = Duration.ofMillis(1200);
    static final Duration MARGIN = Duration.ofMillis(300);
    static final String KEY = "coordinator";

    /** Records gains and losses with their times. */
    static final class Events implements LeaderElection.Listener {
        final List<String> log = new CopyOnWriteArrayList<>();
        volatile long lostAtNanos;

        @Override
        public void elected(long term) {
            log.add("elected " + term);
        }

        @Override
        public void revoked(long term, String reason) {
            lostAtNanos = System.nanoTime();
            log.add("revoked " + term + ": " + reason);
        }
    }

    @Test
    void aLoneCandidateLeads() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        Events ev = new Events();
        try (LeaderElection e = LeaderElection.start(m, KEY, "c1", TTL, MARGIN, null, ev)) {
            assertTrue(e.awaitLeadership(Duration.ofSeconds(2)));
            assertTrue(e.term() > 0);
            Thread.sleep(2 * TTL.toMillis());
            assertTrue(e.isLeader(), "renewals keep it leader");
            assertEquals(List.of("elected " + e.term()), ev.log);
        }
        assertEquals(2, ev.log.size());
        assertTrue(ev.log.get(1).contains("closed"), ev.log.toString());
        assertNull(m.holder(KEY), "a closed leader releases the key");
    }

    @Test
    void closingTheLeaderHandsOverWithAHigherTerm() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        try (LeaderElection a = LeaderElection.start(m, KEY, "a", TTL, MARGIN, null, null);
                LeaderWatch w = new LeaderWatch()) {
            assertTrue(a.awaitLeadership(Duration.ofSeconds(2)));
            long termA = a.term();
            try (LeaderElection b = LeaderElection.start(m.connect(), KEY, "b", TTL, MARGIN, null, null)) {
                w.watch(a, b);
                Thread.sleep(TTL.toMillis());
                assertFalse(b.isLeader(), "b waits while a renews");
                a.close();
                assertTrue(b.awaitLeadership(Duration.ofSeconds(2)));
                assertTrue(b.term() > termA, b.term() + " after " + termA);
            }
            w.assertNeverTwoLeaders();
        }
    }

    @Test
    void aLeaderCutOffFromTheLockManagerStepsDownBeforeItsTtlAndTheOtherTakesOver() throws Exception {
        InMemoryLockManager ma = new InMemoryLockManager();
        InMemoryLockManager mb = ma.connect();
        Events evA = new Events();
        try (LeaderElection a = LeaderElection.start(ma, KEY, "a", TTL, MARGIN, null, evA);
                LeaderWatch w = new LeaderWatch()) {
            assertTrue(a.awaitLeadership(Duration.ofSeconds(2)));
            long termA = a.term();
            try (LeaderElection b = LeaderElection.start(mb, KEY, "b", TTL, MARGIN, null, null)) {
                w.watch(a, b);
                Thread.sleep(TTL.toMillis() / 2);
                long hungAt = System.nanoTime();
                ma.hang();
                assertTrue(b.awaitLeadership(Duration.ofSeconds(3)));
                long tookOverAt = System.nanoTime();
                assertFalse(a.isLeader());
                assertTrue(evA.lostAtNanos != 0 && evA.lostAtNanos < tookOverAt, evA.log.toString());
                assertTrue(evA.lostAtNanos - hungAt < TimeUnit.MILLISECONDS.toNanos(TTL.toMillis()),
                        "a stepped down within one TTL of the cut");
                assertTrue(b.term() > termA);
                ma.heal();
                Thread.sleep(TTL.toMillis());
                assertFalse(a.isLeader(), "healed, a stays a follower while b renews");
                assertTrue(b.isLeader());
            }
            w.assertNeverTwoLeaders();
        }
    }

    @Test
    void aFailingLinkAlsoEndsLeadershipAndItIsRegainedAfterHealing() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        Events ev = new Events();
        try (LeaderElection a = LeaderElection.start(m, KEY, "a", TTL, MARGIN, null, ev)) {
            assertTrue(a.awaitLeadership(Duration.ofSeconds(2)));
            long first = a.term();
            m.fail("connection reset");
            Thread.sleep(TTL.toMillis());
            assertFalse(a.isLeader());
            assertTrue(a.lastError() != null && a.lastError().contains("connection reset"), a.lastError());
            m.heal();
            assertTrue(a.awaitLeadership(Duration.ofSeconds(3)));
            assertTrue(a.term() > first, "a new term after losing the old one");
        }
    }

    /** Samples candidates in a tight loop and remembers if two ever claimed to lead together. */
    static final class LeaderWatch implements AutoCloseable {
        private volatile LeaderElection[] candidates = new LeaderElection[0];
        private volatile String violation;
        private volatile boolean stop;
        private final Thread t;

        LeaderWatch() {
            t = new Thread(() -> {
                while (!stop) {
                    LeaderElection[] cs = candidates;
                    int leaders = 0;
                    StringBuilder who = new StringBuilder();
                    for (LeaderElection c : cs) {
                        if (c.isLeader()) {
                            leaders++;
                            who.append(c).append(' ');
                        }
                    }
                    if (leaders > 1 && violation == null) {
                        violation = who.toString();
                    }
                    Thread.onSpinWait();
                }
            }, "leader-watch");
            t.setDaemon(true);
            t.start();
        }

        void watch(LeaderElection... cs) {
            candidates = cs;
        }

        void assertNeverTwoLeaders() {
            assertNull(violation, "two leaders at once: " + violation);
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            t.join();
        }
    }
}
