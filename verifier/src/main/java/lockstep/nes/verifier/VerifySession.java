package lockstep.nes.verifier;

import java.util.function.Function;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;

/** A lockstep verification session in one of its modes. */
public interface VerifySession extends AlertWebhook.RollbackTarget {
    /** Same-thread, threads, or processes (each engine in its own engine-host JVM). */
    enum Mode { SAME_THREAD, THREADS, PROCESSES }

    /** Runs the session to its end or to a divergence it may not recover from. */
    Lockstep.Result run() throws InterruptedException, RomFormatException;

    /**
     * The injected faults that fired, in the order given; one not in the list never fired (its
     * cycle was past the run's end), which the command reports.
     */
    java.util.List<FaultSpec> firedFaults();

    /**
     * The times of the engine threads that ended so far (threads mode; the other modes run no
     * engine thread of their own and give none).
     */
    default java.util.List<EngineThreadTimes> engineThreadTimes() {
        return java.util.List.of();
    }

    /** The session's epoch fence (its rejected-write count is exported as a metric). */
    EpochFence fence();

    /**
     * Threads mode whose engines start from {@code snapshot} (a state of {@code cart}) instead
     * of power-on; its frames are counted from there (the benchmark times a session after its
     * warm-up frames so).
     */
    static VerifySession threadsFrom(Cartridge cart, Lockstep.Options options,
                                     Function<EpochFence, SessionMetrics> metrics, byte[] snapshot) {
        ThreadedLockstep t = new ThreadedLockstep(cart, options, metrics);
        t.startFrom(snapshot);
        return t;
    }

    /**
     * A session in {@code mode}; processes mode also takes its hosts' settings
     * ({@code hosts}, ignored by the other modes).
     */
    static VerifySession create(Mode mode, Cartridge cart, Lockstep.Options options, HostSettings hosts,
                                Function<EpochFence, SessionMetrics> metrics) throws RomFormatException {
        return switch (mode) {
            case THREADS -> new ThreadedLockstep(cart, options, metrics);
            case PROCESSES -> new ProcessLockstep(options, hosts, metrics);
            case SAME_THREAD -> new Lockstep(cart, options, metrics);
        };
    }

    /** A same-thread or threads session (processes mode needs its hosts' settings: the other create). */
    static VerifySession create(Mode mode, Cartridge cart, Lockstep.Options options,
                                Function<EpochFence, SessionMetrics> metrics) throws RomFormatException {
        if (mode == Mode.PROCESSES) {
            throw new IllegalArgumentException("processes mode needs the engine hosts' settings");
        }
        return create(mode, cart, options, null, metrics);
    }
}
