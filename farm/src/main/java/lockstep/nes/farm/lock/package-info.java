/**
 * Distributed locks with expiring leases and fencing tokens, and what keeps them safe.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link lockstep.nes.farm.lock.LockManager} — acquire, renew, release; implementations
 *       chosen by URL in {@link lockstep.nes.farm.lock.LockManagers}: {@code postgresql://} and
 *       {@code sqlite:} ({@code SqlLockManager}), {@code redis://host:port[?timeout=ms]}
 *       ({@link lockstep.nes.farm.lock.RedisLockManager}), {@code etcd://host:port[?timeout=ms]}
 *       ({@link lockstep.nes.farm.lock.EtcdLockManager}, etcd 3.4+ through jetcd: its lock API).</li>
 *   <li>{@link lockstep.nes.farm.lock.LeaseKeeper} — renews a lease every TTL/3 and fires a
 *       {@link lockstep.nes.farm.lock.KillSwitch} when it can no longer vouch for it.</li>
 *   <li>{@link lockstep.nes.farm.lock.LeaderElection} — campaigns through the lock manager's
 *       {@link lockstep.nes.farm.lock.Campaign}: the lock on a well-known key, or on etcd its
 *       election API ({@code EtcdCampaign}); the leadership's fencing token grows from leader to
 *       leader.</li>
 * </ul>
 *
 * <p>Why the kill switch and the fencing token together keep a paused or cut-off holder from
 * committing, and what that assumes of clocks: docs/design/farm.md.
 */
package lockstep.nes.farm.lock;
