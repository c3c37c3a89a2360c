package lockstep.nes.farm.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * How a {@link LeaderElection} candidate becomes leader: on most lock managers by taking the
 * lock on the election's key ({@link LockManager#candidacy()}); on etcd through its election API
 * ({@link EtcdCampaign}). The won leadership is a {@link Lease} whose fencing token grows from
 * leader to leader, renewed and resigned like any lease.
 */
public interface Campaign extends LeaseRenewer {

    /**
     * One attempt at leadership of {@code key} for {@code candidate}: the lease when it is won, or
     * empty when another candidate leads. May wait in line, but returns soon after
     * {@code giveUp} turns true.
     */
    Optional<Lease> campaign(String key, String candidate, Duration ttl, BooleanSupplier giveUp) throws LockException;

    /** The current leader as this candidate last saw it, or null when it does not watch. */
    default String observedLeader() {
        return null;
    }
}
