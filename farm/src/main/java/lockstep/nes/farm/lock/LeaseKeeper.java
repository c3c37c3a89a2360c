package lockstep.nes.farm.lock;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps a lease alive: a daemon heartbeat renews it every TTL/3 and fires the holder's
 * {@link KillSwitch} as soon as the lease can no longer be trusted, then stops.
 *
 * <p>The switch fires, with a reason saying which, when
 * <ul>
 *   <li>a renewal answers that the lease is lost ({@code lost:}),</li>
 *   <li>a renewal throws ({@code renewal failed:}),</li>
 *   <li>a renewal has not answered by the lease's local deadline minus the safety margin
 *       ({@code renewal timed out:} — a cut or black-holed link, whatever the client's own
 *       socket timeouts are; the renewal runs on a second thread so the heartbeat never waits
 *       past that point), or</li>
 *   <li>the lease would expire before the next renewal could succeed plus the safety margin
 *       ({@code deadline:} — a slow answer, or the heartbeat thread itself was paused).</li>
 * </ul>
 * All of these are judged on the holder's conservative local deadline
 * {@link Lease#validUntilNanos()} (request sent + TTL), so the switch fires before the lock
 * manager could give the lease to anybody else, as long as the margin covers the holder's own
 * reaction time (the worker stops at its next frame boundary).
 *
 * <p>{@link #close()} stops the heartbeat without firing and releases the lease (best effort).
 *
 * <p>Metrics, all tagged {@code kind=<lock manager kind>}: counters {@code farm.lease.renewals},
 * {@code farm.lease.renewals.failed}, {@code farm.killswitch.firings} (also tagged
 * {@code cause=lost|failed|timeout|deadline}) and the gauge {@code farm.leases.held}.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Map<MeterRegistry, Map<String, AtomicInteger>> HELD = new WeakHashMap<>();
    private static final AtomicLong THREADS = new AtomicLong();
    /**
     * Runs renewals and releases for every keeper, so a call stuck on a dead link can be waited
     * for with a deadline; threads are reused (a farm starts a keeper per job, hundreds a second).
     */
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lease-call-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    /**
     * Runs the heartbeats: one thread per kept lease, as before, but reused from job to job (a
     * worker on short jobs started a fresh thread per job, a measurable share of its CPU).
     */
    private static final ExecutorService HEARTBEATS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lease-heartbeat-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private final LeaseRenewer manager;
    private final KillSwitch killSwitch;
    private final long ttlNanos;
    private final long periodNanos;
    private final long marginNanos;
    private final Counter renewals;
    private final Counter renewalsFailed;
    private final MeterRegistry registry;
    private final AtomicInteger held;
    /** The heartbeat, run on a pooled thread; counted down when it has stopped. */
    private final java.util.concurrent.CountDownLatch stoppedLatch = new java.util.concurrent.CountDownLatch(1);
    private volatile Thread heartbeatThread;
    private volatile boolean heartbeatStarted;
    private Future<?> heartbeat;
    private volatile Lease current;
    private volatile boolean closed;
    private volatile boolean lost;
    private boolean released;

    private LeaseKeeper(LeaseRenewer manager, Lease lease, KillSwitch killSwitch, Duration safetyMargin,
            MeterRegistry registry) {
        this.manager = manager;
        this.killSwitch = killSwitch;
        this.current = lease;
        this.ttlNanos = TimeUnit.MILLISECONDS.toNanos(lease.ttlMillis());
        this.periodNanos = ttlNanos / 3;
        this.marginNanos = safetyMargin.toNanos();
        if (marginNanos < 0 || marginNanos >= ttlNanos - periodNanos) {
            throw new IllegalArgumentException("safety margin " + safetyMargin.toMillis()
                    + " ms must be >= 0 and below two thirds of the TTL (" + lease.ttlMillis() + " ms)");
        }
        this.registry = registry == null ? new SimpleMeterRegistry() : registry;
        String kind = manager.kind();
        this.renewals = Counter.builder("farm.lease.renewals").tag("kind", kind)
                .description("lease renewals that succeeded").register(this.registry);
        this.renewalsFailed = Counter.builder("farm.lease.renewals.failed").tag("kind", kind)
                .description("lease renewals that failed, timed out or found the lease lost").register(this.registry);
        this.held = heldGauge(this.registry, kind);
        this.held.incrementAndGet();
    }

    /**
     * Starts keeping {@code lease} (just acquired from {@code manager}) alive.
     *
     * @param safetyMargin how long before the local deadline the holder must have stopped; must
     *                     be below two thirds of the TTL (the heartbeat period is TTL/3)
     * @param registry     where the counters go; null for none
     */
    public static LeaseKeeper start(LeaseRenewer manager, Lease lease, KillSwitch killSwitch, Duration safetyMargin,
            MeterRegistry registry) {
        LeaseKeeper k = new LeaseKeeper(manager, lease, killSwitch, safetyMargin, registry);
        k.heartbeat = HEARTBEATS.submit(k::heartbeat);
        return k;
    }

    /** The lease as last renewed (same key, owner and token; a later local deadline). */
    public Lease current() {
        return current;
    }

    public KillSwitch killSwitch() {
        return killSwitch;
    }

    /**
     * Whether the holder may still act on the lease right now: the switch has not fired and the
     * local deadline minus the safety margin has not passed (checked on the caller's clock, so it
     * turns false on time even if the heartbeat thread is stalled).
     */
    public boolean valid() {
        return !killSwitch.fired() && !closed && System.nanoTime() - (current.validUntilNanos() - marginNanos) < 0;
    }

    private void heartbeat() {
        heartbeatThread = Thread.currentThread();
        heartbeatStarted = true;
        try {
            if (!closed) {
                run();
            }
        } finally {
            heartbeatThread = null;
            stoppedLatch.countDown();
        }
    }

    private void run() {
        // the first renewal is due a period after the lease was requested, not after this thread
        // started: a slow acquisition must not eat the time left for the first renewal
        long nextAt = current.validUntilNanos() - ttlNanos + periodNanos;
        try {
            while (!closed) {
                if (!sleepUntil(nextAt, current.validUntilNanos() - marginNanos)) {
                    return;
                }
                if (closed) {
                    return;
                }
                long sentAt = System.nanoTime();
                Lease before = current;
                long mustAnswerBy = before.validUntilNanos() - marginNanos;
                if (sentAt - mustAnswerBy >= 0) {
                    kill("deadline", "lease " + before.key() + " would expire locally before a renewal could answer"
                            + " (heartbeat late by " + TimeUnit.NANOSECONDS.toMillis(sentAt - nextAt) + " ms)");
                    return;
                }
                Future<Optional<Lease>> f = CALLS.submit(() -> manager.renew(before));
                Optional<Lease> answer;
                try {
                    answer = f.get(mustAnswerBy - sentAt, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    f.cancel(true);
                    renewalsFailed.increment();
                    kill("timeout", "renewal of " + before.key() + " did not answer within "
                            + TimeUnit.NANOSECONDS.toMillis(mustAnswerBy - sentAt) + " ms; the lease would expire");
                    return;
                } catch (ExecutionException e) {
                    if (closed) {
                        return;
                    }
                    renewalsFailed.increment();
                    Throwable c = e.getCause();
                    kill("failed", "renewal of " + before.key() + " failed: " + c);
                    return;
                }
                if (closed) {
                    return;
                }
                if (answer.isEmpty()) {
                    renewalsFailed.increment();
                    lost = true;
                    kill("lost", "lease " + before.key() + " (token " + before.fencingToken() + ") was lost");
                    return;
                }
                Lease renewed = answer.get();
                // never trust a deadline later than our own conservative one
                long until = Math.min(renewed.validUntilNanos(), sentAt + ttlNanos);
                current = renewed.renewedUntil(until);
                renewals.increment();
                long now = System.nanoTime();
                nextAt = Math.max(sentAt + periodNanos, now);
                if (until - marginNanos - nextAt <= 0) {
                    kill("deadline", "lease " + before.key() + " would expire before the next renewal could succeed"
                            + " (renewal took " + TimeUnit.NANOSECONDS.toMillis(now - sentAt) + " ms)");
                    return;
                }
            }
        } catch (InterruptedException e) {
            if (!closed) {
                kill("failed", "heartbeat interrupted");
            }
        } catch (RuntimeException | Error e) {
            if (!closed) {
                kill("failed", "heartbeat crashed: " + e);
            }
            throw e;
        }
    }

    /**
     * Sleeps until {@code wakeAt}; returns false (after firing the switch) if the local deadline
     * {@code mustActBy} passes first, which happens only when this thread was paused.
     */
    private boolean sleepUntil(long wakeAt, long mustActBy) throws InterruptedException {
        while (!closed) {
            long now = System.nanoTime();
            if (now - mustActBy >= 0) {
                kill("deadline", "lease " + current.key() + " reached its local deadline minus the margin "
                        + TimeUnit.NANOSECONDS.toMillis(now - mustActBy) + " ms ago, before its renewal was due"
                        + " (heartbeat thread paused or starved of CPU)");
                return false;
            }
            long left = wakeAt - now;
            if (left <= 0) {
                return true;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return false;
    }

    private void kill(String cause, String reason) {
        if (closed) {
            return;
        }
        if (!killSwitch.fired()) {
            // counted before firing so whoever wakes on the switch already sees the count
            Counter.builder("farm.killswitch.firings").tag("kind", manager.kind()).tag("cause", cause)
                    .description("kill switches fired because a lease could not be kept").register(registry)
                    .increment();
        }
        dropHeld();
        killSwitch.fire(reason);
    }

    private synchronized void dropHeld() {
        if (!released) {
            released = true;
            held.decrementAndGet();
        }
    }

    /**
     * Stops the heartbeat (without firing the switch) and releases the lease, best effort: a
     * failure to release is ignored, the lease then simply expires. Waits at most about one
     * heartbeat period each for the heartbeat thread and for the release (a release stuck on a
     * dead link is left to finish or time out in the background).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (Thread.currentThread() != heartbeatThread) {
                // cancel(true) interrupts only while the task runs, never the pooled thread's next task
                heartbeat.cancel(true);
                // a heartbeat cancelled before it started never runs (and then sees closed anyway)
                if (heartbeatStarted) {
                    stoppedLatch.await(Math.max(100, TimeUnit.NANOSECONDS.toMillis(periodNanos)), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dropHeld();
        if (!lost) {
            Lease last = current;
            Future<?> f = CALLS.submit(() -> {
                try {
                    manager.release(last);
                } catch (LockException | RuntimeException e) {
                    // best effort: the lease expires on its own
                }
            });
            try {
                f.get(Math.max(100, TimeUnit.NANOSECONDS.toMillis(periodNanos)), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // left to finish or time out in the background
            }
        }
    }

    /**
     * Stops the heartbeat like {@link #close()} but does not release the lease: the holder
     * already deleted it (PostgreSQL: in the same statement as its fenced commit).
     */
    public void closeReleased() {
        lost = true;
        close();
    }

    private static AtomicInteger heldGauge(MeterRegistry registry, String kind) {
        synchronized (HELD) {
            Map<String, AtomicInteger> byKind = HELD.computeIfAbsent(registry, r -> new ConcurrentHashMap<>());
            return byKind.computeIfAbsent(kind, k -> {
                AtomicInteger n = new AtomicInteger();
                Gauge.builder("farm.leases.held", n, AtomicInteger::get).tag("kind", k)
                        .description("leases currently kept alive by this process").strongReference(true)
                        .register(registry);
                return n;
            });
        }
    }
}
