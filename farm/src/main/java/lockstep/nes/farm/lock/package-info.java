/**
 * Distributed locks with expiring leases and fencing tokens, and what keeps them safe.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link lockstep.nes.farm.lock.LockManager} — acquire, renew, release; implementations
 *       chosen by URL in {@link lockstep.nes.farm.lock.LockManagers}: {@code postgresql://} and
 *       {@code sqlite:} ({@code SqlLockManager}), {@code redis://host:port[?timeout=ms]}
 *       ({@link lockstep.nes.farm.lock.RedisLockManager}), {@code etcd://host:port[?timeout=ms]}
 *       ({@link lockstep.nes.farm.lock.EtcdLockManager}, etcd 3.4+'s JSON gateway).</li>
 *   <li>{@link lockstep.nes.farm.lock.LeaseKeeper} — renews a lease every TTL/3 and fires a
 *       {@link lockstep.nes.farm.lock.KillSwitch} when it can no longer vouch for it.</li>
 *   <li>{@link lockstep.nes.farm.lock.LeaderElection} — a lease on a well-known key; its fencing
 *       token is the leader's term.</li>
 * </ul>
 *
 * <h2>The timing argument</h2>
 * A holder measures its lease on its own monotonic clock from the moment it <em>sent</em> the
 * acquire or renew request: {@code Lease.validUntilNanos = sent + TTL}. The server starts its TTL
 * when it <em>receives</em> the request, later, so the server's expiry is never earlier than the
 * holder's local deadline (clock rates aside: keep the safety margin well above any drift over
 * one TTL). The keeper fires the kill switch no later than {@code validUntilNanos - margin}, on a
 * renewal failure, a lost lease, a renewal that has not answered by then (it waits for the call
 * on another thread, so a black-holed link cannot hold it), or a heartbeat that woke up too late.
 * The work checks the switch at each frame boundary, so as long as one frame takes less than the
 * margin, the work has stopped before anybody else can hold the lease.
 *
 * <p>That argument fails when the whole holder process is paused (GC, SIGSTOP) past its deadline:
 * nothing local can stop a paused process. The fencing token covers that case: every write
 * carries it and storage rejects a token older than the newest it has seen.
 *
 * <h2>Tokens</h2>
 * PostgreSQL: a sequence; SQLite: a counter row; Redis: {@code INCR} on a key that never expires
 * (a Redis that restarts without its data restarts the count: run it with persistence); etcd: the
 * key's create revision (cluster-wide, only grows).
 */
package lockstep.nes.farm.lock;
