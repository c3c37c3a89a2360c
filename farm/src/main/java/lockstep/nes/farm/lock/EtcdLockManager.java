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
import io.etcd.jetcd.options.GetOption;
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
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import lockstep.nes.farm.secret.UrlCredentials;

/**
 * Leases in etcd through its gRPC API (jetcd).
 *
 * <ul>
 *   <li>acquire: when nobody holds or waits for {@code lockstep/lock/K}, grant an etcd lease with
 *       the TTL (rounded up to whole seconds) and take etcd's lock {@code lockstep/lock/K} with it
 *       (the lock API: a key {@code lockstep/lock/K/<lease>} that holds the lock once every key
 *       created before it under that prefix is gone). A lock that does not answer within the
 *       timeout (another acquirer won the race) is given up by revoking the lease. Then the owner
 *       is written into the lock key. Its create revision is the fencing token: etcd's revision is
 *       cluster-wide and only grows, and the lock is granted in create-revision order, so every
 *       lease ever issued for {@code K} gets a larger one.</li>
 *   <li>renew: read the holder (the first key under the prefix); if it is this owner at this
 *       create revision, send one keep-alive for its etcd lease. A keep-alive only ever extends
 *       this holder's own etcd lease, so the read and the keep-alive need not be atomic. The
 *       keep-alive is sent once per renewal, never streamed in the background: a holder that
 *       stops renewing (paused, cut off) must lose its lease after the TTL.</li>
 *   <li>release: the same check, then unlock (the lock API deletes the key) and revoke the etcd
 *       lease.</li>
 * </ul>
 *
 * <p>URL: {@code etcd://[user:password@]host:port[?timeout=ms]}, or {@code etcds://...[&cacert=FILE]}
 * over TLS (default timeout 1000 ms for connect and for each request, so a cut link is reported
 * within it). Calls are not retried beyond the timeout.
 * Thread-safe.
 */
public final class EtcdLockManager implements LockManager {
    static final String PREFIX = "lockstep/lock/";

    /** Calls failing in a row, with no answer between them, after which the client is built anew. */
    static final int FAILURES_BEFORE_REBUILD = 2;

    private final String url;
    private final long timeoutMillis;
    private final Options options;
    private final java.net.URI endpoint;
    private volatile Client client;
    /** False until a call has answered: the first call also opens the connection. */
    private volatile boolean connected;
    /** Calls that failed since the last answer. */
    private final AtomicInteger failures = new AtomicInteger();
    /** When the client was built ({@link System#nanoTime()}). */
    private volatile long builtNanos = System.nanoTime();
    private volatile boolean closed;
    /**
     * The client was built anew and has had no answer since: an UNAUTHENTICATED then comes from
     * a fresh authentication with the URL's password, a refusal (jetcd reports a failed token
     * refresh by the status alone), not from a session the server forgot.
     */
    private volatile boolean rebuiltSinceAnswer;
    /**
     * When a client built anew was first refused since the last answer (0: not refused). A
     * server wiped and restarted refuses a fresh authentication too until its authentication is
     * enabled anew, so a refusal stands only when a client built after it is refused as well.
     */
    private volatile long firstRefusalNanos;

    /** How many times the client was built anew. */
    private final AtomicInteger rebuilds = new AtomicInteger();

    private EtcdLockManager(String url, Client client, Options options) {
        this.url = url;
        this.options = options;
        this.endpoint = java.net.URI.create(options.endpoint());
        this.timeoutMillis = options.timeoutMillis();
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
        return new EtcdLockManager(LockManagers.mask(url), builder(o, url).build(), o);
    }

    static Options parse(String url) throws LockException {
        UrlCredentials cred = RedisLockManager.credentials(url, "etcd");
        URI u;
        try {
            u = URI.create(cred.rest());
        } catch (IllegalArgumentException e) {
            throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': " + RedisLockManager.reason(e));
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
        String user = cred.user();
        String password = cred.password();
        if ((user == null) != (password == null)) {
            throw new LockException("bad etcd URL '" + LockManagers.mask(url) + "': expected user:password@");
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

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    static String etcdKey(String key) {
        return PREFIX + key;
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long sent = System.nanoTime();
        String name = etcdKey(key);
        if (holder(name, "acquire " + key) != null) {
            return Optional.empty(); // cheap check first: no etcd lease granted, nobody queued behind a busy key
        }
        long seconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        long leaseId = await(client.getLeaseClient().grant(seconds), "grant a lease for " + key).getID();
        if (leaseId == 0) {
            throw new LockException("etcd " + url + ": lease grant for " + key + " answered no lease id");
        }
        ByteSequence lockKey;
        try {
            lockKey = await(client.getLockClient().lock(bytes(name), leaseId), "lock " + key).getKey();
        } catch (LockException e) {
            // Revoking the lease deletes our place in the queue, so an answer that comes later
            // holds nothing. A lock that did not answer in time is someone else's race win when
            // another holder is there now; otherwise the call failed.
            revokeQuietly(leaseId);
            if (e.getCause() instanceof TimeoutException && holder(name, "acquire " + key) != null) {
                return Optional.empty();
            }
            throw e;
        }
        // The owner goes into the lock key (the lock API writes it empty), so renew and release can
        // check who holds it; the key's create revision, its place in the lock's queue, is the token.
        TxnResponse t;
        try {
            t = await(client.getKVClient().txn()
                    .If(new Cmp(lockKey, Cmp.Op.GREATER, CmpTarget.createRevision(0)))
                    .Then(Op.put(lockKey, bytes(owner), PutOption.builder().withLeaseId(leaseId).build()),
                            Op.get(lockKey, GetOption.DEFAULT))
                    .commit(), "name the holder of " + key);
        } catch (LockException e) {
            revokeQuietly(leaseId);
            throw e;
        }
        if (!t.isSucceeded() || t.getGetResponses().isEmpty() || t.getGetResponses().get(0).getKvs().isEmpty()) {
            revokeQuietly(leaseId); // the lease ran out between the lock and the write
            return Optional.empty();
        }
        long revision = t.getGetResponses().get(0).getKvs().get(0).getCreateRevision();
        if (revision <= 0) {
            throw new LockException("etcd " + url + ": lock for " + key + " answered no revision");
        }
        return Optional.of(new Lease(key, owner, revision, ttl.toMillis(), sent + ttl.toNanos()));
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        KeyValue kv = holder(etcdKey(lease.key()), "renew " + lease.key());
        if (!holds(kv, lease)) {
            return Optional.empty();
        }
        return keepAliveOnce(kv.getLease(), "keep " + lease.key() + " alive")
                ? Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L))
                : Optional.empty();
    }

    /**
     * One keep-alive for {@code leaseId}; false when the lease has expired (its keys are gone or
     * going). Never streamed: a holder that stops calling this loses the lease after its TTL.
     */
    boolean keepAliveOnce(long leaseId, String what) throws LockException {
        long ttl;
        try {
            ttl = await(client.getLeaseClient().keepAliveOnce(leaseId), what).getTTL();
        } catch (LockException e) {
            if (e.getCause() instanceof EtcdException ee && ee.getErrorCode() == ErrorCode.NOT_FOUND) {
                return false; // the etcd lease expired before the keep-alive
            }
            throw e;
        }
        return ttl > 0;
    }

    @Override
    public void release(Lease lease) throws LockException {
        KeyValue kv = holder(etcdKey(lease.key()), "release " + lease.key());
        if (holds(kv, lease)) {
            await(client.getLockClient().unlock(kv.getKey()), "unlock " + lease.key());
            revokeQuietly(kv.getLease()); // its only key is gone; free the lease now rather than at its TTL
        }
    }

    private static boolean holds(KeyValue kv, Lease lease) {
        return kv != null && kv.getValue().toString(StandardCharsets.UTF_8).equals(lease.owner())
                && kv.getCreateRevision() == lease.fencingToken() && kv.getLease() != 0;
    }

    /**
     * The lock's holder: of the keys the lock API queued under {@code name/}, the one created
     * first; null when nobody holds or waits for the lock.
     */
    private KeyValue holder(String name, String what) throws LockException {
        List<KeyValue> kvs = await(client.getKVClient().get(bytes(name + "/"), GetOption.builder().isPrefix(true)
                .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.ASCEND).withLimit(1)
                .build()), what).getKvs();
        return kvs.isEmpty() ? null : kvs.get(0);
    }

    @Override
    public void check() throws LockException {
        try {
            holder("lockstep/check", "check the server");
        } catch (LockRefusedException e) {
            throw e;
        } catch (LockException e) {
            String m = String.valueOf(e.getMessage());
            // A bare UNAUTHENTICATED or a stale token is also what a server wiped and restarted
            // says until its authentication is enabled anew: asked again, not refused.
            if (m.contains("authentication failed") || m.contains("PERMISSION_DENIED") || m.contains("user name is empty")) {
                throw new LockRefusedException("etcd " + url + ": the server refused the credentials ("
                        + m.substring(m.indexOf("failed: ") < 0 ? 0 : m.indexOf("failed: ") + 8) + ")");
            }
            if (e.getCause() instanceof TimeoutException || m.contains("UNAVAILABLE")) {
                throw new LockException("etcd " + url + ": cannot reach the server (no answer within "
                        + 2 * timeoutMillis + " ms)");
            }
            throw e;
        }
    }

    @Override
    public boolean listening() {
        return LockManager.listening(endpoint.getHost(), endpoint.getPort(), timeoutMillis);
    }

    void revokeQuietly(long leaseId) {
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
    <T> T await(CompletableFuture<T> call, String what) throws LockException {
        long wait = connected ? timeoutMillis : 2 * timeoutMillis;
        try {
            T answer = call.get(wait, TimeUnit.MILLISECONDS);
            connected = true;
            failures.set(0);
            rebuiltSinceAnswer = false;
            firstRefusalNanos = 0;
            return answer;
        } catch (TimeoutException e) {
            call.cancel(true);
            failed();
            throw new LockException("etcd " + url + ": " + what + " did not answer within " + wait + " ms", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String m = String.valueOf(cause.getMessage());
            if (m.contains("authentication failed") || m.contains("UNAUTHENTICATED") && rebuiltSinceAnswer && refusedAgain()) {
                // etcd checked the user and password and refused them (a password changed under
                // a running process): no retry can succeed
                throw new LockRefusedException("etcd " + url + ": the server refused the credentials (" + what + ": "
                        + cause.getMessage() + ")");
            }
            if (!(cause instanceof EtcdException ee && ee.getErrorCode() == ErrorCode.NOT_FOUND)) {
                failed(); // NOT_FOUND is an answer: an expired lease
            }
            throw new LockException("etcd " + url + ": " + what + " failed: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new LockException("etcd " + url + ": " + what + " interrupted", e);
        }
    }

    /**
     * A refusal of a client built anew: true when an earlier one was seen since the last answer
     * and the client was built again after it (a fresh authentication refused twice).
     */
    private boolean refusedAgain() {
        long first = firstRefusalNanos;
        if (first == 0) {
            firstRefusalNanos = System.nanoTime();
            return false;
        }
        return builtNanos - first > 0;
    }

    /**
     * A call failed. After {@link #FAILURES_BEFORE_REBUILD} in a row, while something listens
     * at the server's address, the client is built anew, as a freshly started process would
     * build it: a new connection, a new authentication. An etcd wiped and started again (a new
     * cluster, its authentication enabled anew) no longer knows the old client's session: its
     * token belongs to a cluster that is gone, and jetcd's own retries of such calls outlast
     * every timeout, so the old client never answers again. At most one rebuild per two
     * timeouts (and a second), so a server that is merely slow is not asked through ever new
     * connections. The old client is closed two timeouts later, letting calls other threads
     * have in flight on it end on their own.
     */
    private void failed() {
        if (failures.incrementAndGet() < FAILURES_BEFORE_REBUILD || closed) {
            return;
        }
        long now = System.nanoTime();
        if (now - builtNanos < Math.max(1000, 2 * timeoutMillis) * 1_000_000L || !listening()) {
            return;
        }
        Client old;
        synchronized (this) {
            if (closed || now - builtNanos < Math.max(1000, 2 * timeoutMillis) * 1_000_000L) {
                return;
            }
            try {
                old = client;
                client = builder(options, url).build();
            } catch (LockException | RuntimeException e) {
                return; // the options built a client once; keep the old one
            }
            builtNanos = System.nanoTime();
            rebuiltSinceAnswer = true;
            connected = false;
            failures.set(0);
            rebuilds.incrementAndGet();
        }
        CompletableFuture.delayedExecutor(2 * timeoutMillis, TimeUnit.MILLISECONDS).execute(old::close);
    }

    int rebuilds() {
        return rebuilds.get();
    }

    /** The coordinator's election runs on etcd's election API ({@link EtcdCampaign}), not on a lock. */
    @Override
    public Campaign candidacy() {
        return new EtcdCampaign(this);
    }

    Client client() {
        return client;
    }

    /** The URL, password masked, for messages. */
    String url() {
        return url;
    }

    @Override
    public String kind() {
        return "etcd";
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        client.close();
    }
}
