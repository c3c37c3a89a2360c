package lockstep.nes.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT or SIGTERM during a long run (headless, verify, canary, test-roms): the run stops at
 * its next frame (or ROM) boundary, prints its summary line, writes the report done so far
 * marked {@code "interrupted": true}, and the JVM exits with 128 + the signal (130 for SIGINT,
 * 143 for SIGTERM), the code the JVM gives a process its signal ended.
 *
 * <p>The JVM runs shutdown hooks on those signals, and exits when they return; the hook here
 * raises the flag the run polls and then waits for the command to finish writing (at most
 * {@link #GRACE_SECONDS}), so nothing half-written is left. The hook is registered only while a
 * command that polls the flag runs; after the command returns, the hook returns at once.
 */
final class Interrupt implements AutoCloseable {
    /** The longest a signal waits for the command to write what it has. */
    static final long GRACE_SECONDS = 30;

    private static volatile boolean requested;
    /** The latch of a command closed after a signal came, which {@link #release} opens. */
    private static volatile CountDownLatch pending;

    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private Interrupt() {
        hook = new Thread(() -> {
            requested = true;
            try {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "lockstep-interrupt");
    }

    /** Watches for a signal until {@link #close}. */
    static Interrupt watch() {
        requested = false;
        Interrupt i = new Interrupt();
        Runtime.getRuntime().addShutdownHook(i.hook);
        return i;
    }

    /** True once a signal asked the run to stop (polled at frame boundaries). */
    static boolean requested() {
        return requested;
    }

    /** Raises the flag as a signal would (tests). */
    static void request() {
        requested = true;
    }

    /**
     * The command is done writing. Without a signal the hook is removed. After one (shutdown has
     * begun) the hook still holds the JVM until {@link #release}: the command may have ended with
     * an error whose line {@link Main} prints after the command returns.
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
            finished.countDown();
        } catch (IllegalStateException e) {
            // Shutdown has begun (a signal): the hook is running; Main releases it.
            pending = finished;
        }
        requested = false;
    }

    /** The command line's result is printed: a signal waiting for it may now end the JVM. */
    static void release() {
        CountDownLatch p = pending;
        if (p != null) {
            p.countDown();
        }
    }

    /** Thrown out of a run loop that polls {@link #requested} (unchecked: it crosses callbacks). */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("interrupted", null, false, false);
        }
    }
}
