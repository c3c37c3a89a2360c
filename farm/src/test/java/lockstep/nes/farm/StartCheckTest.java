package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import lockstep.nes.farm.lock.Lease;
import lockstep.nes.farm.lock.LockException;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.lock.LockRefusedException;
import org.junit.jupiter.api.Test;

/**
 * The lock server check at a worker's or coordinator's start: refused credentials end it at once,
 * a server that does not answer yet (slow, restarting) is asked again, and one that never answers
 * ends it within the window.
 */
class StartCheckTest {
    /** A lock manager whose check answers from a script: an exception to throw, or null for an answer. */
    private static final class Scripted implements LockManager {
        final Deque<LockException> script = new ArrayDeque<>();
        LockException always;
        boolean listening;
        /** Probes that find nothing listening before something does (with {@code listening} false). */
        int closedProbes = Integer.MAX_VALUE;
        int checks;
        boolean closed;

        @Override
        public void check() throws LockException {
            checks++;
            LockException e = script.isEmpty() ? always : script.poll();
            if (e != null) {
                throw e;
            }
        }

        @Override
        public boolean listening() {
            return listening || closedProbes-- <= 0;
        }

        @Override
        public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) {
            return Optional.empty();
        }

        @Override
        public Optional<Lease> renew(Lease lease) {
            return Optional.empty();
        }

        @Override
        public void release(Lease lease) {
        }

        @Override
        public String kind() {
            return "scripted";
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void aServerThatComesUpWithinTheWindowIsAskedAgain() throws Exception {
        Scripted m = new Scripted();
        m.closedProbes = 2; // nothing listens for 100 + 200 ms, then something does
        m.script.add(new LockException("etcd x: check the server failed: UNAVAILABLE"));
        m.script.add(new LockException("etcd x: check the server did not answer within 1000 ms"));
        assertSame(m, Farm.checked(m, Duration.ofSeconds(3), Duration.ofSeconds(60)));
        assertEquals(3, m.checks);
        assertTrue(!m.closed);
    }

    @Test
    void refusedCredentialsEndTheStartAtOnce() {
        Scripted m = new Scripted();
        m.always = new LockRefusedException("Redis x: the server refused the credentials (WRONGPASS)");
        Farm.BadInput e = assertThrows(Farm.BadInput.class, () -> Farm.checked(m, Duration.ofSeconds(3), Duration.ofSeconds(60)));
        assertTrue(e.getMessage().contains("refused the credentials"), e.getMessage());
        assertEquals(1, m.checks, "asked again after a refusal");
        assertTrue(m.closed);
    }

    @Test
    void aListeningServerThatAnswersLateIsAskedPastTheShortWindow() throws Exception {
        Scripted m = new Scripted();
        m.listening = true;
        for (int i = 0; i < 6; i++) { // 100 + 200 + 400 + 800 + 1000 + 1000 ms of backoff: past 1 s
            m.script.add(new LockException("etcd x: check the server did not answer within 1000 ms"));
        }
        assertSame(m, Farm.checked(m, Duration.ofSeconds(1), Duration.ofSeconds(60)));
        assertEquals(7, m.checks);
    }

    @Test
    void aListeningServerThatNeverAnswersEndsTheStartWithinTheLongWindow() {
        Scripted m = new Scripted();
        m.listening = true;
        m.always = new LockException("etcd x: cannot reach the server (no answer within 1000 ms)");
        long t0 = System.nanoTime();
        assertThrows(Farm.BadInput.class, () -> Farm.checked(m, Duration.ofMillis(200), Duration.ofMillis(1500)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(m.checks >= 3, m.checks + " checks");
        assertTrue(ms >= 700 && ms < 1500 + 2_000, "took " + ms + " ms");
    }

    @Test
    void aServerThatNeverAnswersEndsTheStartWithinTheWindow() {
        Scripted m = new Scripted();
        m.always = new LockException("etcd x: cannot reach the server (no answer within 1000 ms)");
        long t0 = System.nanoTime();
        Farm.BadInput e = assertThrows(Farm.BadInput.class, () -> Farm.checked(m, Duration.ofMillis(800), Duration.ofSeconds(60)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(e.getMessage().contains("cannot reach the server"), e.getMessage());
        assertEquals(1, m.checks, "asked again while nothing listens");
        assertTrue(m.closed);
        assertTrue(ms >= 300 && ms < 800 + 2_000, "took " + ms + " ms");
    }
}
