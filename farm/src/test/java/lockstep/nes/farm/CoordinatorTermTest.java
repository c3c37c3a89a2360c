package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import lockstep.nes.farm.lock.InMemoryLockManager;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's terms come from the store, so a lock server that restarts empty (and hands
 * its first token out again) cannot let two leaders write under one term.
 */
class CoordinatorTermTest {
    @TempDir
    Path tmp;

    @Test
    void lockServerRestartedEmptyCannotRepeatATerm() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            InMemoryLockManager first = new InMemoryLockManager();
            ByteArrayOutputStream logA = new ByteArrayOutputStream();
            ByteArrayOutputStream logB = new ByteArrayOutputStream();
            Coordinator a = coordinator(store, first, "A", 1500, Duration.ofMillis(900), logA);
            Thread ta = start(a);
            await(logA, "requeued");
            int writes = count(logA, "writing with term");
            await(logA, "writing with term", writes + 1);
            // A sleeps before its next write; its lock server dies and a new one starts empty.
            first.fail("lock server down");
            InMemoryLockManager second = new InMemoryLockManager();
            Coordinator b = coordinator(store, second, "B", 0, Duration.ofMillis(900), logB);
            Thread tb = start(b);
            await(logB, "requeued");
            await(logA, "write REJECTED");
            a.stop();
            b.stop();
            ta.join(10_000);
            tb.join(10_000);
            assertOneLeaderPerTermInOrder(store, text(logA) + text(logB));
        }
    }

    /** A coordinator on {@code locks} with a short period, pausing {@code pause} ms before each write. */
    static Coordinator coordinator(Store store, LockManager locks, String owner, long pause, Duration ttl,
                                   ByteArrayOutputStream log) {
        Coordinator.Options o = new Coordinator.Options();
        o.ttl = ttl;
        o.safetyMargin = ttl.dividedBy(5);
        o.period = Duration.ofMillis(50);
        o.owner = owner;
        o.pauseBeforeWriteMillis = pause;
        return new Coordinator(store, locks, o, new FarmMetrics(), new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    /** Runs {@code c} on a thread of its own until it is stopped. */
    static Thread start(Coordinator c) {
        Thread t = new Thread(() -> {
            try {
                c.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        return t;
    }

    /** The coordinator log: never two leaders under one term, and terms never go back. */
    static void assertOneLeaderPerTermInOrder(Store store, String logs) throws Exception {
        try (var c = store.db().connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT term, count(DISTINCT leader) FROM coordinator_log GROUP BY term")) {
            while (r.next()) {
                assertEquals(1, r.getInt(2), "two leaders wrote under term " + r.getLong(1) + ":\n" + logs);
            }
        }
        long last = 0;
        for (long[] row : store.coordinator().coordinatorLogTerms()) {
            assertTrue(row[1] >= last, "a write of term " + row[1] + " after one of term " + last);
            last = row[1];
        }
    }

    static String text(ByteArrayOutputStream log) {
        synchronized (log) {
            return log.toString(StandardCharsets.UTF_8);
        }
    }

    static int count(ByteArrayOutputStream log, String what) {
        return text(log).split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    static void await(ByteArrayOutputStream log, String what) throws InterruptedException {
        await(log, what, 1);
    }

    static void await(ByteArrayOutputStream log, String what, int times) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (count(log, what) < times) {
            assertTrue(System.nanoTime() - end < 0, "no '" + what + "' within 20 s:\n" + text(log));
            Thread.sleep(5);
        }
    }
}
