package lockstep.nes.verifier;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A bounded ring of verified checkpoints (both engines agreed at that point): frame, cycle,
 * the epoch it was written in, the canonical snapshot bytes and their hash. Writes are fenced by
 * epoch: a checkpoint from an older epoch is rejected.
 */
public final class CheckpointRing {
    /** One checkpoint. The snapshot bytes are owned by the ring (never modified). */
    public record Checkpoint(long frame, long cycle, long epoch, byte[] snapshot, String hash) {
    }

    private final int capacity;
    private final EpochFence fence;
    private final Deque<Checkpoint> ring = new ArrayDeque<>();

    public CheckpointRing(int capacity, EpochFence fence) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = capacity;
        this.fence = fence;
    }

    /** Adds a checkpoint written in {@code cp.epoch()}; false if that epoch is stale. */
    public boolean add(Checkpoint cp) {
        return fence.write(cp.epoch(), () -> {
            synchronized (ring) {
                if (ring.size() == capacity) {
                    ring.removeFirst();
                }
                ring.addLast(cp);
            }
        });
    }

    /** The newest checkpoint, or null. */
    public Checkpoint latest() {
        synchronized (ring) {
            return ring.peekLast();
        }
    }

    /** The newest checkpoint at or before {@code cycle}, or null. */
    public Checkpoint latestAtOrBefore(long cycle) {
        synchronized (ring) {
            var it = ring.descendingIterator();
            while (it.hasNext()) {
                Checkpoint cp = it.next();
                if (cp.cycle() <= cycle) {
                    return cp;
                }
            }
            return null;
        }
    }

    public int size() {
        synchronized (ring) {
            return ring.size();
        }
    }

    /** Total snapshot bytes held (for the memory-per-minute figure). */
    public long bytes() {
        synchronized (ring) {
            long n = 0;
            for (Checkpoint cp : ring) {
                n += cp.snapshot().length;
            }
            return n;
        }
    }
}
