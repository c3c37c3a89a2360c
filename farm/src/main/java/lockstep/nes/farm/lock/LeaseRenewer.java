package lockstep.nes.farm.lock;

import java.util.Optional;

/**
 * Renews and gives up a lease already held: what a {@link LeaseKeeper} needs, whether the lease
 * is a lock ({@link LockManager}) or a leadership ({@link Campaign}).
 */
public interface LeaseRenewer {

    /**
     * Extends a held lease by its TTL. Returns the renewed lease, or empty when it was lost
     * (expired and taken, or released). The fencing token never changes on renewal.
     */
    Optional<Lease> renew(Lease lease) throws LockException;

    /** Gives the lease up if {@code lease.owner()} still holds it; otherwise does nothing. */
    void release(Lease lease) throws LockException;

    /** The URL scheme of the server behind it (postgresql, sqlite, redis, etcd), for logs and metrics. */
    String kind();
}
