package lockstep.nes.verifier;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A bounded single-producer/single-consumer ring of per-cycle digests (primitive longs, no
 * allocation per cycle). The engine thread publishes the digest after each of its cycles; the
 * verifier consumes them in order. A full ring blocks the producer: that back-pressure bounds
 * how far an engine can run ahead of the comparison.
 */
final class DigestRing {
    private final long[] digests;
    private final int mask;
    /** Number of digests published (written by the producer). */
    private final AtomicLong published = new AtomicLong();
    /** Number of digests consumed (written by the consumer). */
    private final AtomicLong consumed = new AtomicLong();
    private long cachedConsumed;

    DigestRing(int capacityPowerOfTwo) {
        if (Integer.bitCount(capacityPowerOfTwo) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two");
        }
        digests = new long[capacityPowerOfTwo];
        mask = capacityPowerOfTwo - 1;
    }

    int capacity() {
        return digests.length;
    }

    /**
     * Publishes the next digest; waits while the ring is full. Returns false if {@code stop}
     * was raised while waiting.
     */
    boolean publish(long digest, java.util.function.BooleanSupplier stop) {
        long p = published.get();
        if (p - cachedConsumed >= digests.length) {
            cachedConsumed = consumed.get();
            while (p - cachedConsumed >= digests.length) {
                if (stop.getAsBoolean()) {
                    return false;
                }
                LockSupport.parkNanos(20_000);
                cachedConsumed = consumed.get();
            }
        }
        digests[(int) (p & mask)] = digest;
        published.lazySet(p + 1);
        return true;
    }

    long published() {
        return published.get();
    }

    long consumed() {
        return consumed.get();
    }

    /** The digest with sequence number {@code n} (must be published and not yet consumed). */
    long get(long n) {
        return digests[(int) (n & mask)];
    }

    void consumeUpTo(long n) {
        consumed.lazySet(n);
    }
}
