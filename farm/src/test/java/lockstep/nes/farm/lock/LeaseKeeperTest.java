package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LeaseKeeperTest {
    private static final Duration TTL = Duration.ofMillis(1200);
    private static final Duration MARGIN = Duration.ofMillis(300);

    @BeforeAll
    static void warmUp() throws Exception {
        // load the keeper's and Micrometer's classes once, so the first test's lease does not
        // spend its margin in class loading on a busy machine
        InMemoryLockManager m = new InMemoryLockManager();
        LeaseKeeper.start(m, acquire(m, "warm-up"), new KillSwitch(), MARGIN, new SimpleMeterRegistry()).close();
    }

    private static Lease acquire(LockManager m, String owner) throws LockException {
        return m.tryAcquire("job-1", owner, TTL).orElseThrow();
    }

    @Test
    void keepsTheLeaseAlivePastManyTtls() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, reg)) {
            assertEquals(1.0, reg.get("farm.leases.held").tag("kind", "memory").gauge().value());
            Thread.sleep(3 * TTL.toMillis());
            assertFalse(ks.fired(), ks.reason());
            assertTrue(k.valid());
            assertEquals("w1", m.holder("job-1"));
            assertTrue(m.connect().tryAcquire("job-1", "w2", TTL).isEmpty());
            assertEquals(lease.fencingToken(), k.current().fencingToken());
            assertTrue(k.current().validUntilNanos() > lease.validUntilNanos());
            double renewals = reg.get("farm.lease.renewals").tag("kind", "memory").counter().count();
            assertTrue(renewals >= 6, "renewals " + renewals); // every TTL/3 for 3 TTLs
        }
        assertEquals(0.0, reg.get("farm.leases.held").tag("kind", "memory").gauge().value());
        assertFalse(ks.fired(), "close must not fire the switch");
        assertNull(m.holder("job-1"), "close releases the lease");
    }

    @Test
    void lostLeaseFiresTheSwitch() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, reg)) {
            m.expireNow("job-1");
            assertTrue(m.connect().tryAcquire("job-1", "w2", TTL).isPresent());
            assertTrue(ks.await(TTL));
            assertTrue(ks.reason().contains("lost"), ks.reason());
            assertFalse(k.valid());
            assertEquals(1.0, reg.get("farm.killswitch.firings").tag("cause", "lost").counter().count());
            assertEquals(1.0, reg.get("farm.lease.renewals.failed").counter().count());
        }
        assertEquals("w2", m.holder("job-1"), "closing a lost lease must not release the new holder's");
    }

    @Test
    void failingRenewalFiresTheSwitch() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, null)) {
            m.fail("connection refused");
            assertTrue(ks.await(TTL));
            assertTrue(ks.reason().startsWith("renewal of job-1 failed"), ks.reason());
            assertTrue(ks.reason().contains("connection refused"), ks.reason());
            assertThrows(KilledException.class, ks::throwIfFired);
        }
    }

    @Test
    void hungRenewalFiresBeforeTheLeaseExpires() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, reg)) {
            Thread.sleep(TTL.toMillis() / 2); // one renewal done
            m.hang();
            try {
                assertTrue(ks.await(TTL.multipliedBy(2)));
                assertTrue(ks.reason().contains("did not answer"), ks.reason());
                // the keeper stops at firing, so current() holds the deadline it judged by
                long early = k.current().validUntilNanos() - ks.firedAtNanos();
                assertTrue(early >= TimeUnit.MILLISECONDS.toNanos(MARGIN.toMillis() / 2),
                        "fired only " + TimeUnit.NANOSECONDS.toMillis(early) + " ms before the local deadline");
                assertEquals(1.0, reg.get("farm.killswitch.firings").tag("cause", "timeout").counter().count());
                long t0 = System.nanoTime();
                k.close();
                assertTrue(System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(TTL.toMillis()),
                        "close must not hang on a dead link");
            } finally {
                m.heal();
            }
        }
    }

    @Test
    void shortGrantOnRenewalFiresBeforeTheNextRenewal() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        m.grantOnRenew(Duration.ofMillis(600)); // < period 400 + margin 300
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, null)) {
            assertTrue(ks.await(TTL));
            assertTrue(ks.reason().contains("before the next renewal"), ks.reason());
        }
    }

    @Test
    void aKeeperStartedLateRenewsAtOnceInsteadOfAPeriodLater() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        Thread.sleep(TTL.toMillis() / 2); // a slow acquisition: past the first renewal's due time
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, null)) {
            Thread.sleep(TTL.toMillis());
            assertFalse(ks.fired(), ks.reason());
            assertTrue(k.valid());
        }
    }

    @Test
    void slowButTimelyRenewalsKeepTheLease() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        KillSwitch ks = new KillSwitch();
        Lease lease = acquire(m, "w1");
        m.latency(Duration.ofMillis(150)); // well inside 2/3 TTL - margin = 500 ms
        try (LeaseKeeper k = LeaseKeeper.start(m, lease, ks, MARGIN, null)) {
            Thread.sleep(2 * TTL.toMillis());
            assertFalse(ks.fired(), ks.reason());
        }
    }

    @Test
    void marginMustLeaveRoomForARenewal() throws Exception {
        InMemoryLockManager m = new InMemoryLockManager();
        Lease lease = acquire(m, "w1");
        assertThrows(IllegalArgumentException.class,
                () -> LeaseKeeper.start(m, lease, new KillSwitch(), Duration.ofMillis(800), null));
        assertThrows(IllegalArgumentException.class,
                () -> LeaseKeeper.start(m, lease, new KillSwitch(), Duration.ofMillis(-1), null));
    }
}
