package lockstep.nes.farm.lock;

/**
 * A lease held on one key: who holds it, the fencing token it was issued with, and until when
 * the holder may act on it.
 *
 * <p>{@code fencingToken} increases monotonically across every lease ever issued for the same
 * key (a PostgreSQL sequence, a Redis {@code INCR}, an etcd create revision). Storage compares
 * it on every write and rejects a write that carries an older token than the last one seen, so
 * a holder that paused past its expiry and woke up as a zombie cannot commit.
 *
 * @param key            the locked name (a job id, or the coordinator's well-known key)
 * @param owner          the holder's unique id (host, pid and a random suffix)
 * @param fencingToken   monotonic per key, {@code > 0}
 * @param ttlMillis      the lease's time to live, as granted
 * @param validUntilNanos the holder's own conservative deadline on {@link System#nanoTime()}:
 *                       the time the acquire or renew request was <em>sent</em> plus the TTL,
 *                       so clock drift and a slow answer only ever shorten it
 */
public record Lease(String key, String owner, long fencingToken, long ttlMillis, long validUntilNanos) {

    /** The same lease with a new local deadline, after a successful renewal. */
    public Lease renewedUntil(long validUntilNanos) {
        return new Lease(key, owner, fencingToken, ttlMillis, validUntilNanos);
    }

    /** Milliseconds the holder may still act, on its own clock (negative when expired). */
    public long remainingMillis(long nowNanos) {
        return (validUntilNanos - nowNanos) / 1_000_000L;
    }
}
