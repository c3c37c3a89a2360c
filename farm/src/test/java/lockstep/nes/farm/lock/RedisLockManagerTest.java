package lockstep.nes.farm.lock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lock manager contract against a real redis-server on loopback. */
class RedisLockManagerTest extends LockManagerContract {
    private static LocalServer server;
    private static int port;

    @BeforeAll
    static void startRedis() throws IOException {
        String bin = TestTools.require("redis-server", "apt-get install redis-server");
        port = LocalServer.freePort();
        server = LocalServer.start("redis", List.of(bin, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no"),
                () -> ping(port));
    }

    private static boolean ping(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(1000);
            s.getOutputStream().write("PING\r\n".getBytes());
            byte[] b = new byte[7];
            int n = s.getInputStream().read(b);
            return n > 0 && new String(b, 0, n).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    @AfterAll
    static void stopRedis() {
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
        return LockManagers.open("redis://127.0.0.1:" + port + "?timeout=1000");
    }

    @Override
    Duration ttl() {
        return Duration.ofSeconds(2);
    }

    @Test
    void aDeadLinkFailsEachCallWithinTheUrlTimeout() throws Exception {
        assertDeadLinkFailsWithin(Duration.ofMillis(2500)); // timeout=1000 plus a loaded machine's slack
    }
}
