package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link LockManager} must do, run against a real server: mutual exclusion, expiry
 * and takeover, fencing tokens, owner checks, leader election, and the link-cut proof
 * (a worker cut off from its lock manager fires its kill switch before its TTL ends, and the job
 * is taken over only after it). A subclass starts the server and opens managers on a port (the
 * server's own, or a {@link TcpProxy}'s in front of it).
 */
@Timeout(120)
abstract class LockManagerContract {

    /** The server's client port on 127.0.0.1. */
    abstract int serverPort();

    /** A manager talking to 127.0.0.1:{@code port}. */
    abstract LockManager open(int port) throws LockException;

    /** The lease TTL the tests use (short; the manager's granularity). */
    abstract Duration ttl();

    Duration margin() {
        return ttl().dividedBy(5);
    }

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private String key;

    @BeforeEach
    void name(TestInfo info) {
        key = "job-" + info.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closing(T c) {
        toClose.add(c);
        return c;
    }

    LockManager client() throws LockException {
        return closing(open(serverPort()));
    }

    private TcpProxy proxy() throws IOException {
        return closing(TcpProxy.start("127.0.0.1", serverPort()));
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** Polls tryAcquire every 25 ms until it succeeds; returns the lease, stamped in {@code at[0]}. */
    private Lease acquireWhenFree(LockManager m, String owner, Duration within, long[] at) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            Optional<Lease> l = m.tryAcquire(key, owner, ttl());
            if (l.isPresent()) {
                at[0] = System.nanoTime();
                return l.get();
            }
            Thread.sleep(25);
        }
        throw new AssertionError(owner + " could not acquire " + key + " within " + within.toMillis() + " ms");
    }

    @Test
    void onlyOneHolderAtATime() throws Exception {
        LockManager a = client();
        LockManager b = client();
        Lease la = a.tryAcquire(key, "a", ttl()).orElseThrow();
        assertTrue(la.fencingToken() > 0);
        assertEquals(key, la.key());
        assertEquals("a", la.owner());
        assertTrue(b.tryAcquire(key, "b", ttl()).isEmpty(), "b must not get a held key");
        assertTrue(a.tryAcquire(key, "a", ttl()).isEmpty(), "not even its holder gets it twice");
        assertTrue(b.tryAcquire(key + "-other", "b", ttl()).isPresent(), "other keys are independent");
    }

    @Test
    void anExpiredLeaseIsTakenOverOnlyAfterItsTtlWithAHigherToken() throws Exception {
        LockManager a = client();
        LockManager b = client();
        long sent = System.nanoTime();
        Lease la = a.tryAcquire(key, "a", ttl()).orElseThrow();
        long[] at = new long[1];
        Lease lb = acquireWhenFree(b, "b", ttl().multipliedBy(3), at);
        assertTrue(at[0] - sent >= ttl().toNanos(),
                "taken over " + ms(at[0] - sent) + " ms after the request, before the TTL of " + ttl().toMillis());
        assertTrue(lb.fencingToken() > la.fencingToken(), lb.fencingToken() + " after " + la.fencingToken());
        assertTrue(a.renew(la).isEmpty(), "the old holder's renewal must fail once the key was taken");
    }

    @Test
    void tokensIncreaseAcrossEveryLeaseOfAKey() throws Exception {
        LockManager a = client();
        LockManager b = client();
        long last = 0;
        for (int i = 0; i < 6; i++) {
            LockManager m = i % 2 == 0 ? a : b;
            Lease l = m.tryAcquire(key, "owner" + (i % 2), ttl()).orElseThrow();
            assertTrue(l.fencingToken() > last, "token " + l.fencingToken() + " after " + last);
            last = l.fencingToken();
            if (i % 3 == 2) {
                l = m.renew(l).orElseThrow();
                assertEquals(last, l.fencingToken(), "renewal keeps the token");
            }
            m.release(l);
        }
    }

    @Test
    void onlyTheHolderCanRenew() throws Exception {
        LockManager a = client();
        LockManager b = client();
        Lease la = a.tryAcquire(key, "a", ttl()).orElseThrow();
        assertTrue(b.renew(new Lease(key, "b", la.fencingToken(), la.ttlMillis(), la.validUntilNanos())).isEmpty(),
                "another owner cannot renew");
        assertTrue(b.renew(new Lease(key, "a", la.fencingToken() + 1, la.ttlMillis(), la.validUntilNanos())).isEmpty(),
                "a lease with another token cannot be renewed");
        long third = ttl().toMillis() / 3;
        long start = System.nanoTime();
        for (int i = 0; i < 4; i++) { // 4 renewals over 4/3 TTL: the holder keeps it past its first TTL
            Thread.sleep(third);
            Optional<Lease> r = a.renew(la);
            assertTrue(r.isPresent(), "the holder's renewal " + i + " failed");
            assertEquals(la.fencingToken(), r.get().fencingToken());
            assertTrue(r.get().validUntilNanos() > la.validUntilNanos());
            la = r.get();
        }
        assertTrue(System.nanoTime() - start > ttl().toNanos());
        assertTrue(b.tryAcquire(key, "b", ttl()).isEmpty(), "renewed past its first TTL, still held");
    }

    @Test
    void onlyTheHolderCanRelease() throws Exception {
        LockManager a = client();
        LockManager b = client();
        Lease la = a.tryAcquire(key, "a", ttl()).orElseThrow();
        b.release(new Lease(key, "b", la.fencingToken(), la.ttlMillis(), la.validUntilNanos()));
        b.release(new Lease(key, "a", la.fencingToken() + 1, la.ttlMillis(), la.validUntilNanos()));
        assertTrue(b.tryAcquire(key, "b", ttl()).isEmpty(), "a release by anyone else must do nothing");
        assertTrue(a.renew(la).isPresent());
        a.release(la);
        Lease lb = b.tryAcquire(key, "b", ttl()).orElseThrow(); // free at once, no TTL wait
        a.release(la); // a stale release after the takeover does nothing either
        assertTrue(a.tryAcquire(key, "a", ttl()).isEmpty());
        assertTrue(b.renew(lb).isPresent());
    }

    @Test
    void leaderElectionNeverHasTwoLeadersWhenTheLeaderIsCutOff() throws Exception {
        TcpProxy link = proxy();
        LockManager viaProxy = closing(open(link.port()));
        LockManager direct = client();
        LeaderElectionTest.Events evA = new LeaderElectionTest.Events();
        LeaderElectionTest.LeaderWatch watch = closing(new LeaderElectionTest.LeaderWatch());
        LeaderElection a = closing(LeaderElection.start(viaProxy, key, "a", ttl(), margin(), null, evA));
        assertTrue(a.awaitLeadership(ttl().multipliedBy(3)), "a: " + a.lastError());
        long termA = a.term();
        LeaderElection b = closing(LeaderElection.start(direct, key, "b", ttl(), margin(), null, null));
        watch.watch(a, b);
        Thread.sleep(ttl().toMillis());
        assertTrue(a.isLeader() && !b.isLeader(), "a keeps leading while it renews");
        link.blackhole();
        assertTrue(b.awaitLeadership(ttl().multipliedBy(4)), "b never took over: " + b.lastError());
        long tookOver = System.nanoTime();
        assertFalse(a.isLeader());
        assertTrue(evA.lostAtNanos != 0 && evA.lostAtNanos - tookOver < 0,
                "a must step down before b leads: " + evA.log);
        assertTrue(b.term() > termA, "term " + b.term() + " after " + termA);
        link.restore();
        Thread.sleep(ttl().toMillis());
        assertFalse(a.isLeader(), "reconnected, a stays a follower while b renews");
        assertTrue(b.isLeader());
        watch.assertNeverTwoLeaders();
    }

    /**
     * A black-holed link makes every call throw within {@code bound} (the manager's own timeouts),
     * instead of hanging its caller.
     */
    void assertDeadLinkFailsWithin(Duration bound) throws Exception {
        TcpProxy link = proxy();
        LockManager m = closing(open(link.port()));
        Lease l = m.tryAcquire(key, "a", ttl()).orElseThrow();
        link.blackhole();
        for (String call : new String[] {"acquire", "renew", "release"}) {
            long t0 = System.nanoTime();
            LockException e = org.junit.jupiter.api.Assertions.assertThrows(LockException.class, () -> {
                switch (call) {
                    case "acquire" -> m.tryAcquire(key + "-2", "a", ttl());
                    case "renew" -> m.renew(l);
                    default -> m.release(l);
                }
            }, call + " over a dead link must throw");
            long took = System.nanoTime() - t0;
            assertTrue(took < bound.toNanos(), call + " took " + ms(took) + " ms to fail: " + e.getMessage());
        }
    }

    @Test
    void aWorkerBlackHoledFromItsLockManagerIsKilledBeforeItsTtlAndItsJobTakenOver() throws Exception {
        linkCutProof(false);
    }

    @Test
    void aWorkerWhoseConnectionsAreResetIsKilledBeforeItsTtlAndItsJobTakenOver() throws Exception {
        linkCutProof(true);
    }

    /** The proof: cut the worker's link; its switch fires before its TTL, the job moves after. */
    private void linkCutProof(boolean reset) throws Exception {
        TcpProxy link = proxy();
        LockManager worker = closing(open(link.port()));
        LockManager other = client();
        worker.release(worker.tryAcquire(key + "-warm-up", "worker", ttl()).orElseThrow()); // connect first
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        Lease lease = worker.tryAcquire(key, "worker", ttl()).orElseThrow();
        KillSwitch ks = new KillSwitch();
        LeaseKeeper keeper = closing(LeaseKeeper.start(worker, lease, ks, margin(), reg));

        Thread.sleep(ttl().toMillis() * 3 / 2);
        assertFalse(ks.fired(), "renewals keep the lease: " + ks.reason());
        assertTrue(other.tryAcquire(key, "other", ttl()).isEmpty(), "the job is held while the worker renews");
        assertTrue(reg.get("farm.lease.renewals").counter().count() >= 2);

        if (reset) {
            link.cut();
        } else {
            link.blackhole();
        }
        long[] tookOver = new long[1];
        Lease taken = acquireWhenFree(other, "other", ttl().multipliedBy(4), tookOver);

        assertTrue(ks.fired(), "the switch must have fired by the time the job moved");
        // after firing the keeper stops, so current() is the lease it judged by: sent + TTL of its
        // last successful renewal, never later than the server's own expiry
        long localDeadline = keeper.current().validUntilNanos();
        assertTrue(ks.firedAtNanos() - localDeadline < 0, "fired " + ms(ks.firedAtNanos() - localDeadline)
                + " ms after the TTL ended: " + ks.reason());
        assertTrue(tookOver[0] - localDeadline >= 0, "taken over " + ms(localDeadline - tookOver[0])
                + " ms before the worker's TTL ended");
        assertTrue(tookOver[0] - ks.firedAtNanos() > 0);
        assertTrue(taken.fencingToken() > lease.fencingToken());
        assertNotNull(ks.reason());
        // a reset link fails fast where the client reports it, or hangs where it reconnects (a
        // JDBC pool): either way the keeper's reason names the renewal, never a lost lease
        assertTrue(ks.reason().contains("failed") || ks.reason().contains("did not answer"), ks.reason());
        assertEquals(1.0, reg.get("farm.killswitch.firings").counter().count());
        System.out.printf("%s link %s: kill switch fired %d ms before the TTL ended (%s); taken over %d ms after it%n",
                worker.kind(), reset ? "reset" : "black-holed", ms(localDeadline - ks.firedAtNanos()), ks.reason(),
                ms(tookOver[0] - localDeadline));
    }
}
