package lockstep.nes.farm.lock;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A lock manager in memory for unit tests: leases expire on {@link System#nanoTime()} like a real
 * server's clock, tokens increase per key across every lease ever issued. Several clients share
 * one server ({@link #connect()}); each client's link can be hung (calls block until healed, like
 * a black-holed network), made to fail (calls throw), or slowed down.
 */
public final class InMemoryLockManager implements LockManager {

    /** The shared server state. */
    private static final class Server {
        final Map<String, long[]> tokens = new TreeMap<>();
        final Map<String, Entry> held = new TreeMap<>();
    }

    private record Entry(String owner, long token, long expiresAtNanos) {
    }

    private final Server server;
    private final Object link = new Object();
    private boolean hung;
    private String failure;
    private long latencyNanos;
    private long grantNanosOverride = -1;
    private volatile int calls;

    public InMemoryLockManager() {
        this(new Server());
    }

    private InMemoryLockManager(Server server) {
        this.server = server;
    }

    /** Another client of the same server, with its own link. */
    public InMemoryLockManager connect() {
        return new InMemoryLockManager(server);
    }

    /** Every call blocks (uninterruptibly for the caller's purposes) until {@link #heal()}. */
    public void hang() {
        synchronized (link) {
            hung = true;
        }
    }

    /** Every call throws a LockException with {@code message} until {@link #heal()}. */
    public void fail(String message) {
        synchronized (link) {
            failure = message;
        }
    }

    /** Each call waits this long before reaching the server. */
    public void latency(Duration d) {
        synchronized (link) {
            latencyNanos = d.toNanos();
        }
    }

    /** Renewals report a local deadline only {@code d} after they were sent (a short grant). */
    public void grantOnRenew(Duration d) {
        synchronized (link) {
            grantNanosOverride = d.toNanos();
        }
    }

    public void heal() {
        synchronized (link) {
            hung = false;
            failure = null;
            latencyNanos = 0;
            link.notifyAll();
        }
    }

    public int calls() {
        return calls;
    }

    /** The current holder of {@code key} on the server, or null (expired leases count as free). */
    public String holder(String key) {
        synchronized (server) {
            Entry e = server.held.get(key);
            return e == null || expired(e) ? null : e.owner();
        }
    }

    /** Lets the server forget {@code key}'s holder at once, as if its TTL had passed. */
    public void expireNow(String key) {
        synchronized (server) {
            server.held.remove(key);
        }
    }

    private void travel() throws LockException {
        calls++;
        long latency;
        synchronized (link) {
            while (hung) {
                try {
                    link.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LockException("interrupted while the link was hung");
                }
            }
            if (failure != null) {
                throw new LockException(failure);
            }
            latency = latencyNanos;
        }
        if (latency > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LockException("interrupted");
            }
        }
    }

    private static boolean expired(Entry e) {
        return System.nanoTime() - e.expiresAtNanos() >= 0;
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long sent = System.nanoTime();
        travel();
        synchronized (server) {
            Entry e = server.held.get(key);
            if (e != null && !expired(e)) {
                return Optional.empty();
            }
            long token = ++server.tokens.computeIfAbsent(key, k -> new long[1])[0];
            server.held.put(key, new Entry(owner, token, System.nanoTime() + ttl.toNanos()));
            return Optional.of(new Lease(key, owner, token, ttl.toMillis(), sent + ttl.toNanos()));
        }
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        travel();
        long grant;
        synchronized (link) {
            grant = grantNanosOverride;
        }
        synchronized (server) {
            Entry e = server.held.get(lease.key());
            if (e == null || expired(e) || !e.owner().equals(lease.owner()) || e.token() != lease.fencingToken()) {
                return Optional.empty();
            }
            long ttl = TimeUnit.MILLISECONDS.toNanos(lease.ttlMillis());
            server.held.put(lease.key(), new Entry(e.owner(), e.token(), System.nanoTime() + ttl));
            return Optional.of(lease.renewedUntil(sent + (grant >= 0 ? grant : ttl)));
        }
    }

    @Override
    public void release(Lease lease) throws LockException {
        travel();
        synchronized (server) {
            Entry e = server.held.get(lease.key());
            if (e != null && e.owner().equals(lease.owner()) && e.token() == lease.fencingToken()) {
                server.held.remove(lease.key());
            }
        }
    }

    @Override
    public String kind() {
        return "memory";
    }

    @Override
    public void close() {
        heal();
    }
}
