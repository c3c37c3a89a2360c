package lockstep.nes.farm.lock;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Leases in etcd through its gRPC API (jetcd).
 *
 * <ul>
 *   <li>acquire: grant an etcd lease with the TTL (rounded up to whole seconds), then a
 *       transaction that puts {@code lockstep/lock/K = owner} attached to that lease only if the
 *       key does not exist ({@code create_revision == 0}). The key's create revision is the
 *       fencing token: etcd's revision is cluster-wide and only grows, so every lease ever issued
 *       for {@code K} gets a larger one. A lost race revokes the unused etcd lease.</li>
 *   <li>renew: read the key; if it still holds this owner at this create revision, send one
 *       keep-alive for its etcd lease. A keep-alive only ever extends this holder's own etcd
 *       lease, so the read and the keep-alive need not be atomic. The keep-alive is sent once per
 *       renewal, never streamed in the background: a holder that stops renewing (paused, cut off)
 *       must lose its lease after the TTL.</li>
 *   <li>release: the same check, then revoke the etcd lease (which deletes the key).</li>
 * </ul>
 *
 * <p>URL: {@code etcd://host:port[?timeout=ms]} (default timeout 1000 ms for connect and for each
 * request, so a cut link is reported within it). Calls are not retried beyond the timeout.
 * Thread-safe.
 */
public final class EtcdLockManager implements LockManager {
    static final String PREFIX = "lockstep/lock/";

    private final String url;
    private final long timeoutMillis;
    private final Client client;
    /** False until a call has answered: the first call also opens the connection. */
    private volatile boolean connected;

    private EtcdLockManager(String url, String endpoint, long timeoutMillis) {
        this.url = url;
        this.timeoutMillis = timeoutMillis;
        // jetcd retries a failed call with backoff; bound the retries by the same timeout
        this.client = Client.builder().endpoints(endpoint).connectTimeout(Duration.ofMillis(timeoutMillis))
                .retryDelay(Math.max(1, timeoutMillis / 5)).retryMaxDelay(Math.max(2, timeoutMillis / 2))
                .retryMaxDuration(Duration.ofMillis(timeoutMillis + 1)).build();
    }

    /** Opens {@code etcd://host:port[?timeout=ms]}. Does not connect until first used. */
    public static EtcdLockManager open(String url) throws LockException {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new LockException("bad etcd URL '" + url + "': " + e.getMessage());
        }
        if (u.getHost() == null || u.getPort() < 0) {
            throw new LockException("bad etcd URL '" + url + "': expected etcd://host:port");
        }
        long timeout = 1000;
        if (u.getQuery() != null) {
            for (String kv : u.getQuery().split("&")) {
                if (kv.startsWith("timeout=")) {
                    try {
                        timeout = Long.parseLong(kv.substring(8));
                    } catch (NumberFormatException e) {
                        throw new LockException("bad etcd URL '" + url + "': timeout must be milliseconds");
                    }
                }
            }
        }
        return new EtcdLockManager(url, "http://" + u.getHost() + ":" + u.getPort(), timeout);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    static String etcdKey(String key) {
        return PREFIX + key;
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long sent = System.nanoTime();
        ByteSequence k = bytes(etcdKey(key));
        if (read(k, "acquire " + key) != null) {
            return Optional.empty(); // cheap check first: no etcd lease granted for a busy key
        }
        long seconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        long leaseId = await(client.getLeaseClient().grant(seconds), "grant a lease for " + key).getID();
        if (leaseId == 0) {
            throw new LockException("etcd " + url + ": lease grant for " + key + " answered no lease id");
        }
        TxnResponse t;
        try {
            t = await(client.getKVClient().txn()
                    .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(Op.put(k, bytes(owner), PutOption.builder().withLeaseId(leaseId).build()))
                    .commit(), "create " + key);
        } catch (LockException e) {
            revokeQuietly(leaseId);
            throw e;
        }
        if (!t.isSucceeded()) {
            revokeQuietly(leaseId);
            return Optional.empty();
        }
        long revision = t.getHeader().getRevision();
        if (revision <= 0) {
            throw new LockException("etcd " + url + ": txn for " + key + " answered no revision");
        }
        return Optional.of(new Lease(key, owner, revision, ttl.toMillis(), sent + ttl.toNanos()));
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        KeyValue kv = read(bytes(etcdKey(lease.key())), "renew " + lease.key());
        if (!holds(kv, lease)) {
            return Optional.empty();
        }
        long ttl;
        try {
            ttl = await(client.getLeaseClient().keepAliveOnce(kv.getLease()), "keep " + lease.key() + " alive")
                    .getTTL();
        } catch (LockException e) {
            if (e.getCause() instanceof EtcdException ee && ee.getErrorCode() == ErrorCode.NOT_FOUND) {
                return Optional.empty(); // the etcd lease expired between the read and the keep-alive
            }
            throw e;
        }
        if (ttl <= 0) {
            return Optional.empty(); // the etcd lease expired: the key is gone or going
        }
        return Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L));
    }

    @Override
    public void release(Lease lease) throws LockException {
        KeyValue kv = read(bytes(etcdKey(lease.key())), "release " + lease.key());
        if (holds(kv, lease)) {
            await(client.getLeaseClient().revoke(kv.getLease()), "revoke " + lease.key());
        }
    }

    private static boolean holds(KeyValue kv, Lease lease) {
        return kv != null && kv.getValue().toString(StandardCharsets.UTF_8).equals(lease.owner())
                && kv.getCreateRevision() == lease.fencingToken() && kv.getLease() != 0;
    }

    /** The key's current entry, or null when absent. */
    private KeyValue read(ByteSequence key, String what) throws LockException {
        List<KeyValue> kvs = await(client.getKVClient().get(key), what).getKvs();
        return kvs.isEmpty() ? null : kvs.get(0);
    }

    private void revokeQuietly(long leaseId) {
        try {
            await(client.getLeaseClient().revoke(leaseId), "revoke an unused lease");
        } catch (LockException e) {
            // it expires on its own
        }
    }

    /**
     * Waits for one call at most the URL's timeout (twice that until the connection is open: one
     * timeout to connect, one for the request); every failure becomes a {@link LockException}.
     */
    private <T> T await(CompletableFuture<T> call, String what) throws LockException {
        long wait = connected ? timeoutMillis : 2 * timeoutMillis;
        try {
            T answer = call.get(wait, TimeUnit.MILLISECONDS);
            connected = true;
            return answer;
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new LockException("etcd " + url + ": " + what + " did not answer within " + wait + " ms", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new LockException("etcd " + url + ": " + what + " failed: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new LockException("etcd " + url + ": " + what + " interrupted", e);
        }
    }

    @Override
    public String kind() {
        return "etcd";
    }

    @Override
    public void close() {
        client.close();
    }
}
