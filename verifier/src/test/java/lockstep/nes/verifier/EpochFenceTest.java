package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class EpochFenceTest {
    @Test
    void stalledWriterFromAnOlderEpochIsRejectedAfterARollback() throws Exception {
        EpochFence fence = new EpochFence();
        CheckpointRing ring = new CheckpointRing(4, fence);
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch rolledBack = new CountDownLatch(1);
        AtomicBoolean lateWriteAccepted = new AtomicBoolean(true);

        Thread engine = new Thread(() -> {
            long myEpoch = fence.current();
            assertTrue(ring.add(new CheckpointRing.Checkpoint(60, 1000, myEpoch, new byte[] {1}, "h1")));
            stalled.countDown();
            try {
                // The thread is paused (GC, I/O, starvation) while the verifier rolls back.
                rolledBack.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lateWriteAccepted.set(ring.add(new CheckpointRing.Checkpoint(120, 2000, myEpoch, new byte[] {2}, "h2")));
        });
        engine.start();
        assertTrue(stalled.await(5, TimeUnit.SECONDS));
        long newEpoch = fence.advance();
        rolledBack.countDown();
        engine.join(5000);

        assertFalse(lateWriteAccepted.get(), "the zombie's write must be rejected");
        assertEquals(1, fence.rejectedWrites());
        assertEquals("h1", ring.latest().hash());
        assertTrue(ring.add(new CheckpointRing.Checkpoint(60, 1000, newEpoch, new byte[] {3}, "h3")));
        assertEquals("h3", ring.latest().hash());
    }

    @Test
    void ringKeepsTheNewestCapacityEntries() {
        EpochFence fence = new EpochFence();
        CheckpointRing ring = new CheckpointRing(3, fence);
        for (int i = 0; i < 5; i++) {
            ring.add(new CheckpointRing.Checkpoint(i * 60, i * 1000L, 1, new byte[10], "h" + i));
        }
        assertEquals(3, ring.size());
        assertEquals("h4", ring.latest().hash());
        assertEquals("h3", ring.latestAtOrBefore(3500).hash());
        assertEquals(null, ring.latestAtOrBefore(1500));
        assertEquals(30, ring.rawBytes());
    }
}
