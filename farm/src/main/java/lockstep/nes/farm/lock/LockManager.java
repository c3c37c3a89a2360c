package lockstep.nes.farm.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A distributed lock with expiring leases and fencing tokens. Implementations: PostgreSQL
 * (rows whose expiry is computed by the server's clock), Redis ({@code SET key owner NX PX ttl},
 * renew and release by owner-comparing Lua scripts, token by {@code INCR}) and etcd (its lock API
 * with a lease kept alive once per renewal; the lock key's create revision is the token). Chosen
 * by URL through {@link LockManagers#open}.
 *
 * <p>A lease is advisory: it tells a worker when to stop, it cannot stop a paused one. Safety comes
 * from the fencing token that every write carries.
 *
 * <p>Every method either answers or throws {@link LockException} (the lock manager could not be
 * reached or answered nonsense); a caller treats an exception on {@link #renew} as a lost lease.
 */
public interface LockManager extends LeaseRenewer, AutoCloseable {

    /**
     * Acquires {@code key} for {@code owner} if nobody holds it (or its holder's lease expired).
     * Returns the lease with a fresh fencing token, or empty when someone else holds it.
     */
    Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException;

    /**
     * How a {@link LeaderElection} on this manager campaigns: by default, for the lock on the
     * election's key (its holder leads; its token is the lock's).
     */
    default Campaign candidacy() {
        LockManager m = this;
        return new Campaign() {
            @Override
            public Optional<Lease> campaign(String key, String candidate, Duration ttl,
                    BooleanSupplier giveUp) throws LockException {
                return m.tryAcquire(key, candidate, ttl);
            }

            @Override
            public Optional<Lease> renew(Lease lease) throws LockException {
                return m.renew(lease);
            }

            @Override
            public void release(Lease lease) throws LockException {
                m.release(lease);
            }

            @Override
            public String kind() {
                return m.kind();
            }
        };
    }

    /**
     * One round trip that proves the server answers and accepts this manager's credentials,
     * within the URL's timeout; a process calls it at start, so a wrong password or a server
     * that never answers is one line then, not a silent retry loop. Refused credentials are a
     * {@link LockRefusedException}; any other failure (no answer in time, connection refused)
     * may be a server that is restarting or slow, and the caller may ask again. The SQL managers
     * share the store's pool, which has connected already.
     */
    default void check() throws LockException {
    }

    /**
     * Whether something accepts a TCP connection at the server's address, within the URL's
     * timeout: after a failed {@link #check()}, it tells a server that is there but slow to
     * answer (a loaded machine, a restart in progress) from an address where nothing listens.
     */
    default boolean listening() {
        return true;
    }

    /** Whether {@code host:port} accepts a TCP connection within {@code timeoutMillis}. */
    static boolean listening(String host, int port, long timeoutMillis) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(host, port), (int) Math.max(1, Math.min(timeoutMillis, 10_000)));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Override
    void close();
}
