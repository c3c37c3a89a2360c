package lockstep.nes.farm.lock;

import java.time.Duration;
import java.util.Optional;

/**
 * A distributed lock with expiring leases and fencing tokens. Implementations: PostgreSQL
 * (rows whose expiry is computed by the server's clock), Redis ({@code SET key owner NX PX ttl},
 * renew and release by owner-comparing Lua scripts, token by {@code INCR}) and etcd (a lease with
 * KeepAlive, the key created by a transaction that succeeds only if it does not exist; the key's
 * create revision is the token). Chosen by URL through {@link LockManagers#open}.
 *
 * <p>A lease is advisory: it tells a worker when to stop, it cannot stop a paused one. Safety comes
 * from the fencing token that every write carries.
 *
 * <p>Every method either answers or throws {@link LockException} (the lock manager could not be
 * reached or answered nonsense); a caller treats an exception on {@link #renew} as a lost lease.
 */
public interface LockManager extends AutoCloseable {

    /**
     * Acquires {@code key} for {@code owner} if nobody holds it (or its holder's lease expired).
     * Returns the lease with a fresh fencing token, or empty when someone else holds it.
     */
    Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException;

    /**
     * Extends a held lease by its TTL. Returns the renewed lease, or empty when it was lost
     * (expired and taken, or released). The fencing token never changes on renewal.
     */
    Optional<Lease> renew(Lease lease) throws LockException;

    /** Gives the lease up if {@code lease.owner()} still holds it; otherwise does nothing. */
    void release(Lease lease) throws LockException;

    /** The URL scheme this manager serves (postgresql, sqlite, redis, etcd), for logs and metrics. */
    String kind();

    @Override
    void close();
}
