package lockstep.nes.verifier;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A bounded single-producer/single-consumer ring of records, each a cycle count and a 64-bit
 * value (a stretch's record, or a cycle's representation term), primitive arrays, nothing
 * allocated per record. The producer publishes its count every {@link #BATCH} records and at
 * {@link #flush} (the end of a stretch or a frame), so the consumer reads records in batches
 * and the two threads share one cache line that often, not per record. A full ring blocks the
 * producer: that back-pressure bounds how far an engine runs ahead of the other (the consumer
 * consumes only what both engines published).
 */
final class RecordRing {
    static final int BATCH = 64;

    private final long[] cycles;
    private final long[] values;
    private final int mask;
    /** Records published (written by the producer). */
    private final AtomicLong published = new AtomicLong();
    /** Records consumed (written by the consumer). */
    private final AtomicLong consumed = new AtomicLong();
    /** The producer's own count (published lags it by under a batch). */
    private long written;
    private long cachedConsumed;

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
     * Puts the next record; while the ring is full, publishes what it holds and waits. Returns
     * false if {@code stop} was raised while waiting.
     */
    boolean put(long cycle, long value, BooleanSupplier stop) {
        final long w = written;
        if (w - cachedConsumed >= values.length) {
            published.lazySet(w);
            cachedConsumed = consumed.get();
            while (w - cachedConsumed >= values.length) {
                if (stop.getAsBoolean()) {
                    return false;
                }
                LockSupport.parkNanos(20_000);
                cachedConsumed = consumed.get();
            }
        }
        final int i = (int) (w & mask);
        cycles[i] = cycle;
        values[i] = value;
        written = w + 1;
        if (((w + 1) & (BATCH - 1)) == 0) {
            published.lazySet(w + 1);
        }
        return true;
    }

    /** Publishes every record put so far. */
    void flush() {
        published.lazySet(written);
    }

    long published() {
        return published.get();
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
        consumed.lazySet(n);
    }
}
