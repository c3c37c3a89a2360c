package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.farm.lock.LeaderElection;
import lockstep.nes.farm.lock.LocalServer;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.lock.LockManagers;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's election on a real etcd, through etcd's election API: one leader among two
 * candidates, and a leader whose etcd lease is lost is succeeded by the other under a strictly
 * greater store term, and its own writes are refused when it resumes.
 */
@Timeout(120)
class EtcdElectionTest {
    /** etcd leases count whole seconds. */
    static final Duration TTL = Duration.ofSeconds(2);

    @RegisterExtension
    static final LocalServer.PerClass ETCD = new LocalServer.PerClass(LocalServer::etcd);

    @TempDir
    Path tmp;

    private static LockManager etcd() throws Exception {
        return LockManagers.open("etcd://127.0.0.1:" + ETCD.port() + "?timeout=3000");
    }

    private static Client raw() {
        return Client.builder().endpoints("http://127.0.0.1:" + ETCD.port()).build();
    }

    /** The leader etcd's election API reports for the coordinator's key. */
    private static KeyValue leaderKey(Client raw) throws Exception {
        ByteSequence name = ByteSequence.from("lockstep/election/" + Coordinator.KEY, StandardCharsets.UTF_8);
        return raw.getElectionClient().leader(name).get(5, TimeUnit.SECONDS).getKv();
    }

    @Test
    void twoCandidatesOneLeaderWhomTheOtherObserves() throws Exception {
        Duration ttl = TTL;
        Duration margin = TTL.dividedBy(5);
        try (LockManager ma = etcd(); LockManager mb = etcd(); Client raw = raw();
                LeaderElection a = LeaderElection.start(ma, Coordinator.KEY, "cand-a", ttl, margin, null, null)) {
            assertTrue(a.awaitLeadership(Duration.ofSeconds(10)), "a: " + a.lastError());
            try (LeaderElection b = LeaderElection.start(mb, Coordinator.KEY, "cand-b", ttl, margin, null, null)) {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!"cand-a".equals(b.observedLeader()) && System.nanoTime() < end) {
                    Thread.sleep(20);
                }
                assertEquals("cand-a", b.observedLeader(), "b observes a leading");
                Thread.sleep(3 * ttl.toMillis()); // well past a TTL: a's renewals keep it leader
                assertTrue(a.isLeader());
                assertFalse(b.isLeader(), "b waits in line while a leads");
                KeyValue leader = leaderKey(raw);
                assertEquals("cand-a", leader.getValue().toString(StandardCharsets.UTF_8));
                assertEquals(a.term(), leader.getCreateRevision(), "a's term is its election key's revision");
                long termA = a.term();
                a.close(); // resigns
                assertTrue(b.awaitLeadership(Duration.ofSeconds(5)), "b takes over at once after a resigns");
                assertTrue(b.term() > termA);
                assertEquals("cand-b", leaderKey(raw).getValue().toString(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aLeaderWhoseLeaseIsRevokedIsSucceededUnderAGreaterStoreTermAndItsWritesAreRefused() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4); LockManager ma = etcd();
                LockManager mb = etcd(); Client raw = raw()) {
            ByteArrayOutputStream logA = new ByteArrayOutputStream();
            ByteArrayOutputStream logB = new ByteArrayOutputStream();
            Coordinator a = CoordinatorTermTest.coordinator(store, ma, "A", 3000, TTL, logA);
            Thread ta = CoordinatorTermTest.start(a);
            await(logA, "term (\\d+): requeued");
            Coordinator b = CoordinatorTermTest.coordinator(store, mb, "B", 0, TTL, logB);
            Thread tb = CoordinatorTermTest.start(b);
            CoordinatorTermTest.await(logB, "following A");
            // A is inside its pause before a write; its etcd lease is revoked (as when its
            // keep-alives stop for a TTL): its election key goes, and B's campaign answers.
            int pauses = CoordinatorTermTest.count(logA, "writing with term ");
            CoordinatorTermTest.await(logA, "writing with term ", pauses + 1);
            Matcher pausedIn = Pattern.compile("writing with term (\\d+)").matcher(CoordinatorTermTest.text(logA));
            long termA = 0;
            while (pausedIn.find()) {
                termA = Long.parseLong(pausedIn.group(1));
            }
            KeyValue leader = leaderKey(raw);
            assertEquals("A", leader.getValue().toString(StandardCharsets.UTF_8));
            raw.getLeaseClient().revoke(leader.getLease()).get(5, TimeUnit.SECONDS);
            long termB = Long.parseLong(await(logB, "elected leader, term (\\d+)"));
            assertTrue(termB > termA, "store term " + termB + " after " + termA);
            CoordinatorTermTest.await(logB, "term " + termB + ": requeued");
            CoordinatorTermTest.await(logA, "write REJECTED: term " + termA + " is stale");
            assertTrue(CoordinatorTermTest.text(logA).contains("no longer leader"), CoordinatorTermTest.text(logA));
            a.stop();
            b.stop();
            ta.join(20_000);
            tb.join(20_000);
            CoordinatorTermTest.assertOneLeaderPerTermInOrder(store, CoordinatorTermTest.text(logA)
                    + CoordinatorTermTest.text(logB));
            assertFalse(CoordinatorTermTest.text(logB).contains("REJECTED"), CoordinatorTermTest.text(logB));
        }
    }

    /** The same with real processes: the leader's keep-alives stop because its process is stopped. */
    @Test
    void aStoppedLeaderProcessIsSucceededAndItsWritesAreRefusedWhenItResumes() throws Exception {
        CoordinatorTest.deposedLeaderCannotWrite(tmp, tmp.resolve("farm.db").toString(), "--locks",
                "etcd://127.0.0.1:" + ETCD.port() + "?timeout=3000");
    }

    /** Waits for a line matching {@code regex}; returns its first group. */
    private static String await(ByteArrayOutputStream log, String regex) throws InterruptedException {
        Pattern p = Pattern.compile(regex);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            Matcher m = p.matcher(CoordinatorTermTest.text(log));
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no '" + regex + "' within 30 s:\n" + CoordinatorTermTest.text(log));
    }
}
