package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.nes.farm.Farm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock server that refuses the credentials, or cannot be reached, is one line and exit 2
 * within seconds at a worker's or coordinator's start; the password never shows.
 */
class CredentialsTest {
    @TempDir
    Path tmp;
    private String store;

    @BeforeEach
    void store() {
        store = tmp.resolve("farm.db").toString();
        assertEquals(0, Farm.submit(store, "noop", List.of("{}"), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
    }

    private record Run(int exit, String err, long millis) {
    }

    private Run worker(String locks) {
        Farm.WorkerArgs a = new Farm.WorkerArgs();
        a.store = store;
        a.locks = locks;
        a.exitWhenIdle = true;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int exit = Farm.worker(a, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, err.toString(StandardCharsets.UTF_8), (System.nanoTime() - t0) / 1_000_000);
    }

    private Run coordinator(String locks) {
        Farm.CoordinatorArgs a = new Farm.CoordinatorArgs();
        a.store = store;
        a.locks = locks;
        a.periods = 1;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int exit = Farm.coordinator(a, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, err.toString(StandardCharsets.UTF_8), (System.nanoTime() - t0) / 1_000_000);
    }

    private static void refused(Run r, String mention, String secret) {
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(mention), r.err());
        assertFalse(secret != null && r.err().contains(secret), "the password shows: " + r.err());
        assertTrue(r.millis() < 8_000, "took " + r.millis() + " ms: " + r.err());
    }

    @Test
    void redisRefusesAWrongPasswordAndAnUnreachableServerIsNamed() throws Exception {
        int port = LocalServer.freePort();
        try (LocalServer redis = LocalServer.redisWithPassword(port, "right-pw")) {
            refused(worker("redis://:Wrong-pw@127.0.0.1:" + port), "refused the credentials", "Wrong-pw");
            refused(coordinator("redis://:Wrong-pw@127.0.0.1:" + port), "refused the credentials", "Wrong-pw");
            refused(worker("redis://127.0.0.1:" + port), "refused the credentials", null);
            Run ok = worker("redis://:right-pw@127.0.0.1:" + port);
            assertEquals(0, ok.exit(), ok.err());
        }
        int closed = LocalServer.freePort();
        refused(worker("redis://127.0.0.1:" + closed), "cannot reach the server", null);
        refused(coordinator("redis://127.0.0.1:" + closed), "cannot reach the server", null);
    }

    @Test
    void etcdRefusesAWrongPasswordAndAnUnreachableServerIsNamed() throws Exception {
        int port = LocalServer.freePort();
        try (LocalServer etcd = LocalServer.etcd(port)) {
            try (Client admin = Client.builder().endpoints("http://127.0.0.1:" + port).build()) {
                admin.getAuthClient().userAdd(EtcdLockManager.bytes("root"), EtcdLockManager.bytes("right-pw"))
                        .get(10, TimeUnit.SECONDS);
                admin.getAuthClient().userGrantRole(EtcdLockManager.bytes("root"), EtcdLockManager.bytes("root"))
                        .get(10, TimeUnit.SECONDS);
                admin.getAuthClient().authEnable().get(10, TimeUnit.SECONDS);
            }
            refused(worker("etcd://root:Wrong-pw@127.0.0.1:" + port), "refused the credentials", "Wrong-pw");
            refused(coordinator("etcd://root:Wrong-pw@127.0.0.1:" + port), "refused the credentials", "Wrong-pw");
            Run ok = worker("etcd://root:right-pw@127.0.0.1:" + port);
            assertEquals(0, ok.exit(), ok.err());
        }
        int closed = LocalServer.freePort();
        refused(worker("etcd://127.0.0.1:" + closed), "cannot reach the server", null);
        refused(coordinator("etcd://127.0.0.1:" + closed), "cannot reach the server", null);
    }
}
