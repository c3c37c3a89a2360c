package lockstep.nes.farm.lock;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lock manager contract against a real single-member etcd on loopback (its v3 JSON gateway). */
class EtcdLockManagerTest extends LockManagerContract {
    private static LocalServer server;
    private static int port;

    @BeforeAll
    static void startEtcd() throws IOException {
        String bin = TestTools.require("etcd", "apt-get install etcd-server");
        port = LocalServer.freePort();
        int peer = LocalServer.freePort();
        String client = "http://127.0.0.1:" + port;
        String peerUrl = "http://127.0.0.1:" + peer;
        // short raft timings keep etcd's minimum lease TTL at 1 s (1.5 election timeouts)
        server = LocalServer.start("etcd", List.of(bin, "--name", "farm-test", "--data-dir", "data",
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
                "--initial-cluster", "farm-test=" + peerUrl, "--heartbeat-interval", "25",
                "--election-timeout", "250"), () -> healthy(client));
    }

    private static boolean healthy(String client) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(client + "/health")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("true");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
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
