package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two workers given the same static partition share it: each job under its lease, the duplicate reported. */
class PartitionTest {
    @TempDir
    Path tmp;

    @Test
    void duplicatePartitionIsReportedAndNeverLivelocks() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 6)) {
            store.submit("noop", Collections.nCopies(12, "{\"ms\":30}"));
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            Worker[] w = new Worker[2];
            Thread[] t = new Thread[2];
            for (int i = 0; i < 2; i++) {
                Worker.Options o = new Worker.Options();
                o.ttl = Duration.ofMillis(2000);
                o.owner = "p" + i;
                o.partition = new Store.Partition(0, 1);
                o.exitWhenIdle = true;
                o.idlePoll = Duration.ofMillis(20);
                w[i] = new Worker(store, locks, Farm.runners(Map.of()), o, null, out);
                Worker wi = w[i];
                t[i] = new Thread(() -> {
                    try {
                        wi.run();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t[i].start();
                if (i == 0) {
                    while (!log.toString(StandardCharsets.UTF_8).contains("started")) {
                        Thread.sleep(5);
                    }
                }
            }
            for (Thread x : t) {
                x.join(30_000);
                assertFalse(x.isAlive(), "livelocked:\n" + log.toString(StandardCharsets.UTF_8));
            }
            String text = log.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("DUPLICATE partition 0/1"), text);
            assertEquals(12, store.countsByStatus().get(Store.DONE));
            assertEquals(12, w[0].committed() + w[1].committed());
            assertEquals(0, w[0].staleCommits() + w[1].staleCommits(), text);
            assertEquals(Map.of("committed", 12), store.attemptCounts(), text);
        }
    }

    /**
     * A partition lease lost under a running worker (a lock server restarted empty) is logged and
     * taken again; when another worker took it meanwhile, this one reports the DUPLICATE.
     */
    @Test
    void aLostPartitionLeaseIsLoggedAndTheDuplicateReported() throws Exception {
        try (Store store = Store.open(tmp.resolve("lost.db").toString(), 4)) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            Worker.Options o = new Worker.Options();
            o.ttl = Duration.ofMillis(900);
            o.owner = "first";
            o.partition = new Store.Partition(0, 2);
            o.idlePoll = Duration.ofMillis(20);
            Worker w = new Worker(store, locks, Farm.runners(Map.of()), o, null, out);
            Thread t = new Thread(() -> {
                try {
                    w.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            try {
                while (!log.toString(StandardCharsets.UTF_8).contains("started")) {
                    Thread.sleep(5);
                }
                Thread.sleep(100);
                // the lock server forgets the lease, and a second worker takes the partition
                try (var c = store.db().connection(); var st = c.createStatement()) {
                    st.executeUpdate("DELETE FROM leases WHERE lock_key = 'partition:0/2'");
                }
                assertTrue(locks.tryAcquire("partition:0/2", "second", Duration.ofSeconds(30)).isPresent());
                long end = System.nanoTime() + 20_000_000_000L;
                while (!log.toString(StandardCharsets.UTF_8).contains("DUPLICATE partition 0/2") && System.nanoTime() < end) {
                    Thread.sleep(20);
                }
                String text = log.toString(StandardCharsets.UTF_8);
                assertTrue(text.contains("partition 0/2 lease LOST"), text);
                assertTrue(text.contains("DUPLICATE partition 0/2"), text);
            } finally {
                w.stop();
                t.join(10_000);
            }
        }
    }
}
