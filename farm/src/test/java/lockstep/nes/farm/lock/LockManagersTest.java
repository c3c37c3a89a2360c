package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockManagersTest {

    @Test
    void redisAndEtcdUrlsOpenTheirManagersWithoutConnecting() throws LockException {
        try (LockManager r = LockManagers.open("redis://127.0.0.1:1?timeout=200")) {
            assertEquals("redis", r.kind());
        }
        try (LockManager e = LockManagers.open("etcd://127.0.0.1:1")) {
            assertEquals("etcd", e.kind());
        }
    }

    @Test
    void badUrlsSayWhatIsWrong() {
        LockException e = assertThrows(LockException.class, () -> LockManagers.open("zookeeper://h:1"));
        assertTrue(e.getMessage().contains("unknown lock manager URL 'zookeeper://h:1'"), e.getMessage());
        e = assertThrows(LockException.class, () -> LockManagers.open("etcd://localhost"));
        assertTrue(e.getMessage().contains("expected etcd://host:port"), e.getMessage());
        e = assertThrows(LockException.class, () -> LockManagers.open("redis://127.0.0.1:6379?timeout=soon"));
        assertTrue(e.getMessage().contains("timeout must be milliseconds"), e.getMessage());
        e = assertThrows(LockException.class, () -> LockManagers.open("redis://127.0.0.1:6379/zero"));
        assertTrue(e.getMessage().contains("database must be a number"), e.getMessage());
    }

    @Test
    void anUnreachableServerIsALockExceptionNotAHang() throws IOException {
        int closed = LocalServer.freePort(); // nothing listens there now
        for (String url : new String[] {"redis://127.0.0.1:" + closed + "?timeout=500",
                "etcd://127.0.0.1:" + closed + "?timeout=500"}) {
            try (LockManager m = LockManagers.open(url)) {
                long t0 = System.nanoTime();
                LockException e = assertThrows(LockException.class,
                        () -> m.tryAcquire("k", "o", Duration.ofSeconds(1)), url);
                // a hang would be the caller's whole wait; 15 s leaves room for a loaded 2-core
                // machine, where the first gRPC call of a JVM alone can take seconds
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 15_000, url + " took " + ms + " ms");
                assertTrue(e.getMessage().contains("127.0.0.1:" + closed), e.getMessage());
                assertFalse(m.listening(), url + ": nothing listens there, a starting process gives up within seconds");
            } catch (LockException e) {
                throw new AssertionError(e);
            }
        }
    }
}
