package lockstep.nes.verifier;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A bounded single-producer/single-consumer ring of records, each a cycle count and a 64-bit
 * value (a stretch's record, or a cycle's representation term), primitive arrays, nothing
 * allocated per record. The producer publishes its count every {@link #BATCH} records and at
 * {@link #flush} (the end of a stretch or a frame), so the consumer reads records in batches
 * and the two threads share a cache line that often, not per record. A full ring holds the
 * producer back: that back-pressure bounds how far an engine runs ahead of the other (records
 * are consumed only once both engines published them).
 *
 * <p>The published and consumed counts sit 128 bytes apart in one array, each on a cache line
 * of its own (and away from the array's header and its neighbours in the heap): the producer
 * writes one, the consumer the other, and neither write invalidates the line the other thread
 * reads in its own loop.
 */
final class RecordRing {
    static final int BATCH = 64;
    /** Indexes into {@link #counts}: 16 longs apart, 128 bytes (two 64-byte lines; adjacent-line prefetch). */
    private static final int PUBLISHED = 16;
    private static final int CONSUMED = 32;
    /** A full ring's producer waits this long at first, doubling up to {@link #MAX_WAIT_NANOS}. */
    private static final long MIN_WAIT_NANOS = 20_000;
    private static final long MAX_WAIT_NANOS = 500_000;
    /** Spins before parking, where a spare core lets the partner run meanwhile (0 otherwise). */
    static final int SPINS = Runtime.getRuntime().availableProcessors() >= 3 ? 2_000 : 0;

    private final long[] cycles;
    private final long[] values;
    private final int mask;
    private final AtomicLongArray counts = new AtomicLongArray(CONSUMED + 16);
    /** The producer's own count (published lags it by under a batch). */
    private long written;
    private long cachedConsumed;
    /** Nanoseconds the producer spent waiting on a full ring. */
    private long waitedNanos;

    RecordRing(int capacityPowerOfTwo) {
        if (Integer.bitCount(capacityPowerOfTwo) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two");
        }
        cycles = new long[capacityPowerOfTwo];
        values = new long[capacityPowerOfTwo];
        mask = capacityPowerOfTwo - 1;
    }

    int capacity() {
        return values.length;
    }

    /**
     * Puts the next record; while the ring is full, publishes what it holds and waits (spinning
     * a while first where cores are spare, then parking for growing times). Returns false if
     * {@code stop} was raised while waiting.
     */
    boolean put(long cycle, long value, BooleanSupplier stop) {
        final long w = written;
        if (w - cachedConsumed >= values.length) {
            counts.lazySet(PUBLISHED, w);
            cachedConsumed = counts.get(CONSUMED);
            if (w - cachedConsumed >= values.length && !await(w, stop)) {
                return false;
            }
        }
        final int i = (int) (w & mask);
        cycles[i] = cycle;
        values[i] = value;
        written = w + 1;
        if (((w + 1) & (BATCH - 1)) == 0) {
            counts.lazySet(PUBLISHED, w + 1);
        }
        return true;
    }

    private boolean await(long w, BooleanSupplier stop) {
        final long t0 = System.nanoTime();
        try {
            for (int s = 0; s < SPINS; s++) {
                Thread.onSpinWait();
                cachedConsumed = counts.get(CONSUMED);
                if (w - cachedConsumed < values.length) {
                    return true;
                }
            }
            long wait = MIN_WAIT_NANOS;
            while (w - cachedConsumed >= values.length) {
                if (stop.getAsBoolean()) {
                    return false;
                }
                LockSupport.parkNanos(wait);
                wait = Math.min(MAX_WAIT_NANOS, wait * 2);
                cachedConsumed = counts.get(CONSUMED);
            }
            return true;
        } finally {
            waitedNanos += System.nanoTime() - t0;
        }
    }

    /** Publishes every record put so far. */
    void flush() {
        counts.lazySet(PUBLISHED, written);
    }

    long published() {
        return counts.get(PUBLISHED);
    }

    /** Records consumed so far. */
    long consumed() {
        return counts.get(CONSUMED);
    }

    /** Nanoseconds the producer waited on a full ring (read by the producer's thread, or after it ended). */
    long waitedNanos() {
        return waitedNanos;
    }

    /** The cycle count of record {@code n} (published and not yet consumed). */
    long cycle(long n) {
        return cycles[(int) (n & mask)];
    }

    /** The value of record {@code n} (published and not yet consumed). */
    long value(long n) {
        return values[(int) (n & mask)];
    }

    void consumeUpTo(long n) {
        counts.lazySet(CONSUMED, n);
    }
}
