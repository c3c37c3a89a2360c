package lockstep.nes.verifier;

/**
 * The fencing token of the verifier: every rollback begins a new, higher epoch. Writers carry
 * the epoch they started in; the checkpoint store and every output sink write through
 * {@link #write}, which performs the write only if no newer epoch has begun — atomically with
 * respect to {@link #advance}, so a stalled thread that wakes up after a rollback cannot slip a
 * write in. Rejected writes are counted.
 */
public final class EpochFence {
    private long epoch = 1;
    private long rejected;

    public synchronized long current() {
        return epoch;
    }

    /** Starts a new epoch and returns it. */
    public synchronized long advance() {
        return ++epoch;
    }

    /**
     * Runs {@code write} if {@code writerEpoch} is still the current epoch (or newer); otherwise
     * counts a rejection. Returns whether the write happened.
     */
    public synchronized boolean write(long writerEpoch, Runnable write) {
        if (writerEpoch < epoch) {
            rejected++;
            return false;
        }
        write.run();
        return true;
    }

    public synchronized long rejectedWrites() {
        return rejected;
    }
}
