package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.lock.LockResponse;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock manager contract against a real single-member etcd on loopback (its gRPC API, through jetcd). */
class EtcdLockManagerTest extends LockManagerContract {
    @RegisterExtension
    static final LocalServer.PerClass SERVER = new LocalServer.PerClass(LocalServer::etcd);

    /**
     * A few calls through a throwaway client first: the gRPC stack's first calls in a fresh JVM
     * load and compile classes, which on a loaded machine can take longer than the 1 s timeout the
     * tests hold every call to.
     */
    @BeforeAll
    static void warmUp() {
        int port = SERVER.port();
        try (LockManager m = LockManagers.open("etcd://127.0.0.1:" + port + "?timeout=10000")) {
            for (int i = 0; i < 20; i++) {
                m.tryAcquire("warm-up", "warm-up", Duration.ofSeconds(1)).ifPresent(l -> {
                    try {
                        m.renew(l);
                        m.release(l);
                    } catch (LockException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        } catch (LockException e) {
            throw new IllegalStateException("etcd on port " + port + " did not answer: " + e.getMessage(), e);
        }
    }

    @Override
    int serverPort() {
        return SERVER.port();
    }

    @Override
    LockManager open(int port) throws LockException {
        return LockManagers.open("etcd://127.0.0.1:" + port + "?timeout=1000");
    }

    @Override
    Duration ttl() {
        return Duration.ofSeconds(3); // etcd leases count whole seconds; renewals take two round trips
    }

    /**
     * The lease is etcd's lock (its lock API): the holder's key is queued under the lock's name
     * and names the owner, and another client of etcd's lock API waits until the farm's holder
     * releases, then gets a later place in the queue.
     */
    @Test
    void aLeaseIsEtcdsLockAndExcludesOtherLockApiClients() throws Exception {
        try (LockManager m = open(serverPort());
                Client raw = Client.builder().endpoints("http://127.0.0.1:" + serverPort()).build()) {
            Lease l = m.tryAcquire("lock-api", "farm-worker", ttl()).orElseThrow();
            ByteSequence name = ByteSequence.from(EtcdLockManager.etcdKey("lock-api"), StandardCharsets.UTF_8);
            List<KeyValue> queued = raw.getKVClient().get(ByteSequence.from(EtcdLockManager.etcdKey("lock-api") + "/",
                    StandardCharsets.UTF_8), GetOption.builder().isPrefix(true).build()).get(5, TimeUnit.SECONDS).getKvs();
            assertEquals(1, queued.size());
            KeyValue held = queued.get(0);
            assertEquals("farm-worker", held.getValue().toString(StandardCharsets.UTF_8));
            assertEquals(l.fencingToken(), held.getCreateRevision());
            assertEquals(EtcdLockManager.etcdKey("lock-api") + "/" + Long.toHexString(held.getLease()),
                    held.getKey().toString(StandardCharsets.UTF_8), "the lock API's key: name/lease");

            long otherLease = raw.getLeaseClient().grant(10).get(5, TimeUnit.SECONDS).getID();
            CompletableFuture<LockResponse> other = raw.getLockClient().lock(name, otherLease);
            Thread.sleep(500);
            assertFalse(other.isDone(), "another lock API client waits while the farm's holder holds");
            assertTrue(m.renew(l).isPresent(), "a waiter does not disturb the holder");
            m.release(l);
            ByteSequence otherKey = other.get(5, TimeUnit.SECONDS).getKey();
            long otherRevision = raw.getKVClient().get(otherKey).get(5, TimeUnit.SECONDS).getKvs().get(0).getCreateRevision();
            assertTrue(otherRevision > l.fencingToken());
            assertTrue(m.tryAcquire("lock-api", "farm-worker", ttl()).isEmpty(), "held by the other client now");
            raw.getLockClient().unlock(otherKey).get(5, TimeUnit.SECONDS);
            raw.getLeaseClient().revoke(otherLease).get(5, TimeUnit.SECONDS);
            Lease again = m.tryAcquire("lock-api", "farm-worker", ttl()).orElseThrow();
            assertTrue(again.fencingToken() > otherRevision);
            m.release(again);
        }
    }

    @Test
    void aDeadLinkFailsEachCallWithinTheUrlTimeout() throws Exception {
        assertDeadLinkFailsWithin(Duration.ofMillis(2500)); // timeout=1000 plus a loaded machine's slack
    }
}
