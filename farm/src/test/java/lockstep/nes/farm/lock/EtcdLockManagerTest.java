package lockstep.nes.farm.lock;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lock manager contract against a real single-member etcd on loopback (its gRPC API, through jetcd). */
class EtcdLockManagerTest extends LockManagerContract {
    private static LocalServer server;
    private static int port;

    @BeforeAll
    static void startEtcd() throws IOException {
        port = LocalServer.freePort();
        server = LocalServer.etcd(port);
        warmUp();
    }

    /**
     * A few calls through a throwaway client first: the gRPC stack's first calls in a fresh JVM
     * load and compile classes, which on a loaded machine can take longer than the 1 s timeout the
     * tests hold every call to.
     */
    private static void warmUp() {
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

    @AfterAll
    static void stopEtcd() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    int serverPort() {
        return port;
    }

    @Override
    LockManager open(int port) throws LockException {
        return LockManagers.open("etcd://127.0.0.1:" + port + "?timeout=1000");
    }

    @Override
    Duration ttl() {
        return Duration.ofSeconds(3); // etcd leases count whole seconds; renewals take two round trips
    }

    @Test
    void aDeadLinkFailsEachCallWithinTheUrlTimeout() throws Exception {
        assertDeadLinkFailsWithin(Duration.ofMillis(2500)); // timeout=1000 plus a loaded machine's slack
    }
}
