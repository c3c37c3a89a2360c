package lockstep.nes.farm.lock;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

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
 * <p>URL: {@code etcd://[user:password@]host:port[?timeout=ms]}, or {@code etcds://...[&cacert=FILE]}
 * over TLS (default timeout 1000 ms for connect and for each request, so a cut link is reported
 * within it). Calls are not retried beyond the timeout.
 * Thread-safe.
 */
public final class EtcdLockManager implements LockManager {
    static final String PREFIX = "lockstep/lock/";

    private final String url;
    private final long timeoutMillis;
    private final Client client;
    /** False until a call has answered: the first call also opens the connection. */
    private volatile boolean connected;

    private EtcdLockManager(String url, Client client, long timeoutMillis) {
        this.url = url;
        this.timeoutMillis = timeoutMillis;
        this.client = client;
    }

    /**
     * The connection options of an etcd URL.
     *
     * @param endpoint {@code http://host:port}, or {@code https://host:port} for {@code etcds://}
     * @param user     etcd user (null: no authentication)
     * @param password that user's password (null without a user)
     * @param caFile   PEM file of the CA that signed the server's certificate (null: the JVM's
     *                 trusted CAs); only with TLS
     * @param timeoutMillis connect and per-request timeout
     */
    record Options(String endpoint, String user, String password, Path caFile, long timeoutMillis) {
    }

    /**
     * Opens {@code etcd://[user:password@]host:port[?timeout=ms]}, or
     * {@code etcds://[user:password@]host:port[?timeout=ms][&cacert=FILE]} over TLS. Does not
     * connect until first used.
     */
    public static EtcdLockManager open(String url) throws LockException {
        Options o = parse(url);
        return new EtcdLockManager(LockManagers.mask(url), builder(o, url).build(), o.timeoutMillis());
    }

    static Options parse(String url) throws LockException {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': " + e.getMessage());
        }
        boolean tls = "etcds".equals(u.getScheme());
        if (u.getHost() == null || u.getPort() < 0) {
            throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': expected etcd://host:port or etcds://host:port");
        }
        long timeout = 1000;
        Path ca = null;
        if (u.getQuery() != null) {
            for (String kv : u.getQuery().split("&")) {
                if (kv.startsWith("timeout=")) {
                    try {
                        timeout = Long.parseLong(kv.substring(8));
                    } catch (NumberFormatException e) {
                        throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': timeout must be milliseconds");
                    }
                } else if (kv.startsWith("cacert=")) {
                    if (!tls) {
                        throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': cacert needs etcds:// (TLS)");
                    }
                    ca = Path.of(kv.substring(7));
                    if (!Files.isReadable(ca)) {
                        throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': cannot read CA file " + ca);
                    }
                }
            }
        }
        String user = null;
        String password = null;
        if (u.getUserInfo() != null) {
            String ui = u.getUserInfo();
            int colon = ui.indexOf(':');
            if (colon < 0) {
                throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': expected user:password@");
            }
            user = ui.substring(0, colon);
            password = ui.substring(colon + 1);
        }
        String endpoint = (tls ? "https://" : "http://") + u.getHost() + ":" + u.getPort();
        return new Options(endpoint, user, password, ca, timeout);
    }

    /** The jetcd client builder for these options (tests read the options back from it). */
    static ClientBuilder builder(Options o, String url) throws LockException {
        long t = o.timeoutMillis();
        // jetcd retries a failed call with backoff; bound the retries by the same timeout
        ClientBuilder b = Client.builder().endpoints(o.endpoint()).connectTimeout(Duration.ofMillis(t))
                .retryDelay(Math.max(1, t / 5)).retryMaxDelay(Math.max(2, t / 2))
                .retryMaxDuration(Duration.ofMillis(t + 1));
        if (o.user() != null) {
            b.user(bytes(o.user())).password(bytes(o.password()));
        }
        if (o.endpoint().startsWith("https://")) {
            try {
                b.sslContext(ssl -> {
                    if (o.caFile() != null) {
                        ssl.trustManager(o.caFile().toFile());
                    }
                });
            } catch (SSLException | IllegalArgumentException e) { // a CA file that is not PEM
                throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': CA file " + o.caFile()
                        + " is not a PEM certificate: " + e.getMessage(), e);
            }
        }
        return b;
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
