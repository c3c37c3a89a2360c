package lockstep.nes.farm.lock;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Campaigns for a well-known key through a lock manager's {@link LockManager#candidacy()} (the
 * lock on the key, or etcd's election API) and, once it leads, keeps the leadership's lease with
 * a {@link LeaseKeeper}. The leader's {@link #term()} is the lease's fencing token: strictly
 * increasing across leaders while the lock server keeps its data (the farm's coordinator takes
 * its fenced term from the store instead).
 *
 * <p>Leadership ends the moment the keeper's kill switch fires (a renewal failed, timed out or
 * found the lease lost), and {@link #isLeader()} also turns false by itself once the lease's
 * local deadline minus the safety margin passes — both before the TTL could let another
 * candidate win. After a loss the candidate campaigns again.
 */
public final class LeaderElection implements AutoCloseable {

    /** Hears about leadership changes. Called on the election's own threads; keep it short. */
    public interface Listener {
        /** This candidate became leader for {@code term}. */
        default void elected(long term) {
        }

        /** This candidate stopped being leader for {@code term} (lost, or closed). */
        default void revoked(long term, String reason) {
        }
    }

    private record Term(long term, LeaseKeeper keeper) {
    }

    private final Campaign campaign;
    private final String key;
    private final String candidate;
    private final Duration ttl;
    private final Duration safetyMargin;
    private final MeterRegistry registry;
    private final Listener listener;
    private final long retryNanos;
    private final AtomicReference<Term> leading = new AtomicReference<>();
    private final Thread campaigner;
    private volatile boolean closed;
    private volatile CountDownLatch electedLatch = new CountDownLatch(1);
    private volatile String lastError;
    private volatile String refusal;

    private LeaderElection(Campaign campaign, String key, String candidate, Duration ttl, Duration safetyMargin,
            MeterRegistry registry, Listener listener) {
        this.campaign = campaign;
        this.key = key;
        this.candidate = candidate;
        this.ttl = ttl;
        this.safetyMargin = safetyMargin;
        this.registry = registry;
        this.listener = listener == null ? new Listener() {
        } : listener;
        this.retryNanos = Math.min(ttl.toNanos() / 3, TimeUnit.SECONDS.toNanos(1));
        this.campaigner = new Thread(this::run, "leader-election-" + key + "-" + candidate);
        this.campaigner.setDaemon(true);
    }

    /**
     * Starts campaigning for {@code key} as {@code candidate} (unique per process: host, pid and
     * a random suffix).
     */
    public static LeaderElection start(LockManager manager, String key, String candidate, Duration ttl,
            Duration safetyMargin, MeterRegistry registry, Listener listener) {
        if (safetyMargin.toNanos() >= ttl.toNanos() - ttl.toNanos() / 3) {
            throw new IllegalArgumentException("safety margin must be below two thirds of the TTL");
        }
        LeaderElection e = new LeaderElection(manager.candidacy(), key, candidate, ttl, safetyMargin, registry, listener);
        e.campaigner.start();
        return e;
    }

    /**
     * Whether this candidate may act as leader right now. False as soon as the lease is lost or
     * its local deadline (minus the safety margin) has passed, even if the heartbeat is stalled.
     */
    public boolean isLeader() {
        Term t = leading.get();
        return t != null && t.keeper().valid();
    }

    /** The fencing token of the current leadership, or 0 while not leader. */
    public long term() {
        Term t = leading.get();
        return t != null && t.keeper().valid() ? t.term() : 0;
    }

    public String candidate() {
        return candidate;
    }

    public String key() {
        return key;
    }

    /** The leader as this candidate last saw it (etcd's election API reports it), or null. */
    public String observedLeader() {
        return campaign.observedLeader();
    }

    /**
     * The lock server's refusal of the credentials (a password changed under a running
     * candidate), or null: the candidate stops campaigning, since no retry can succeed.
     */
    public String refusal() {
        return refusal;
    }

    /** The last error talking to the lock manager while campaigning, or null. */
    public String lastError() {
        return lastError;
    }

    /** Waits up to {@code timeout} until this candidate is leader; returns whether it is. */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!isLeader()) {
            long left = end - System.nanoTime();
            if (left <= 0 || closed) {
                return false;
            }
            electedLatch.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    private void run() {
        Term mine = null;
        try {
            while (!closed) {
                if (mine != null && leading.get() != mine) {
                    mine.keeper().close(); // lost: stop the heartbeat, release if we still can
                    mine = null;
                }
                if (mine != null && !mine.keeper().valid()) {
                    KillSwitch ks = mine.keeper().killSwitch();
                    stepDown(mine, ks.fired() ? ks.reason() : "lease reached its local deadline");
                    continue;
                }
                if (mine == null) {
                    mine = campaignOnce();
                }
                LockSupport.parkNanos(this, mine == null ? retryNanos : retryNanos / 4);
            }
        } finally {
            if (mine != null) {
                stepDown(mine, "election closed");
                mine.keeper().close();
            }
        }
    }

    private Term campaignOnce() {
        Optional<Lease> got;
        try {
            got = campaign.campaign(key, candidate, ttl, () -> closed);
            lastError = null;
        } catch (LockRefusedException e) {
            lastError = String.valueOf(e.getMessage());
            refusal = lastError;
            closed = true;
            return null;
        } catch (LockException | RuntimeException e) {
            lastError = String.valueOf(e.getMessage());
            return null;
        }
        if (got.isEmpty() || closed) {
            if (got.isPresent()) {
                try {
                    campaign.release(got.get());
                } catch (LockException | RuntimeException e) {
                    // it expires on its own
                }
            }
            return null;
        }
        Lease lease = got.get();
        KillSwitch ks = new KillSwitch();
        LeaseKeeper keeper = LeaseKeeper.start(campaign, lease, ks, safetyMargin, registry);
        Term t = new Term(lease.fencingToken(), keeper);
        leading.set(t);
        ks.onFire(reason -> stepDown(t, reason));
        if (leading.get() == t) {
            try {
                listener.elected(t.term());
            } finally {
                electedLatch.countDown();
            }
        }
        return t;
    }

    private void stepDown(Term t, String reason) {
        if (leading.compareAndSet(t, null)) {
            electedLatch = new CountDownLatch(1);
            LockSupport.unpark(campaigner);
            listener.revoked(t.term(), reason);
        }
    }

    /** Stops campaigning; a leader steps down (listener told) and releases the key. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LockSupport.unpark(campaigner);
        if (Thread.currentThread() != campaigner) {
            try {
                campaigner.join(Math.max(1000, 2 * ttl.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        Term t = leading.get();
        return "LeaderElection[" + key + " as " + candidate + (t == null ? ", follower]" : ", leader term " + t.term() + "]");
    }
}
