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
