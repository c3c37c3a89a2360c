package lockstep.nes.farm.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A one-way switch that tells the work running under a lease to stop. The lease keeper fires it
 * when a renewal fails or the lease could expire before the next renewal; the work polls
 * {@link #throwIfFired()} at safe points (each frame boundary) and gives up without writing.
 *
 * <p>Firing is idempotent and the first reason wins. Thread-safe; {@link #fired()} is one
 * volatile read, cheap enough for a per-frame check.
 */
public final class KillSwitch {
    private final Object lock = new Object();
    private final CountDownLatch firedLatch = new CountDownLatch(1);
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile String reason;
    private volatile long firedAtNanos;

    /**
     * Fires the switch. Returns true if this call fired it, false if it had already fired (the
     * first reason is kept). Listeners run on the calling thread, after the switch reads fired.
     */
    public boolean fire(String why) {
        String r = why == null || why.isBlank() ? "unspecified" : why;
        synchronized (lock) {
            if (reason != null) {
                return false;
            }
            firedAtNanos = System.nanoTime();
            reason = r;
        }
        firedLatch.countDown();
        for (Consumer<String> l : listeners) {
            try {
                l.accept(r);
            } catch (RuntimeException e) {
                // a broken listener must not stop the others from hearing the news
            }
        }
        return true;
    }

    public boolean fired() {
        return reason != null;
    }

    /** The first reason given to {@link #fire}, or null while the switch has not fired. */
    public String reason() {
        return reason;
    }

    /** {@link System#nanoTime()} when the switch fired; meaningful only once {@link #fired()}. */
    public long firedAtNanos() {
        return firedAtNanos;
    }

    /** Throws {@link KilledException} (unchecked) naming the reason once the switch has fired. */
    public void throwIfFired() {
        String r = reason;
        if (r != null) {
            throw new KilledException(r);
        }
    }

    /**
     * Adds a listener called once with the reason when the switch fires; called at once (on this
     * thread) when it already has.
     */
    public void onFire(Consumer<String> listener) {
        synchronized (lock) {
            if (reason == null) {
                listeners.add(listener);
                return;
            }
        }
        listener.accept(reason);
    }

    /** Waits up to {@code timeout} for the switch to fire; returns whether it has. */
    public boolean await(Duration timeout) throws InterruptedException {
        return firedLatch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        String r = reason;
        return r == null ? "KillSwitch[armed]" : "KillSwitch[fired: " + r + "]";
    }
}
