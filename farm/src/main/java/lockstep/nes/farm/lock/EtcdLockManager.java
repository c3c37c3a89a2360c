package lockstep.nes.farm.lock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Leases in etcd, through its v3 JSON gateway over plain HTTP (no gRPC dependency).
 *
 * <ul>
 *   <li>acquire: grant an etcd lease with the TTL (rounded up to whole seconds), then a
 *       transaction that puts {@code lockstep/lock/K = owner} attached to that lease only if the
 *       key does not exist ({@code create_revision == 0}). The key's create revision is the
 *       fencing token: etcd's revision is cluster-wide and only grows, so every lease ever issued
 *       for {@code K} gets a larger one. A lost race revokes the unused etcd lease.</li>
 *   <li>renew: read the key; if it still holds this owner at this create revision, KeepAlive its
 *       etcd lease. A KeepAlive only ever extends this holder's own etcd lease, so the read and
 *       the KeepAlive need not be atomic.</li>
 *   <li>release: the same check, then revoke the etcd lease (which deletes the key).</li>
 * </ul>
 *
 * <p>URL: {@code etcd://host:port[?timeout=ms]} (default timeout 1000 ms for connect and for each
 * request, so a cut link is reported within it). Paths are {@code /v3/...} (etcd 3.4 and later).
 * Thread-safe.
 */
public final class EtcdLockManager implements LockManager {
    static final String PREFIX = "lockstep/lock/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String url;
    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    private EtcdLockManager(String url, URI base, Duration timeout) {
        this.url = url;
        this.base = base;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
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
        return new EtcdLockManager(url, URI.create("http://" + u.getHost() + ":" + u.getPort()),
                Duration.ofMillis(timeout));
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String unb64(String s) {
        return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
    }

    static String etcdKey(String key) {
        return PREFIX + key;
    }

    /** The key's current entry (value, create revision, etcd lease id), or null when absent. */
    private record Kv(String value, long createRevision, long leaseId) {
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long sent = System.nanoTime();
        String k = b64(etcdKey(key));
        if (read(k, "acquire " + key) != null) {
            return Optional.empty(); // cheap check first: no etcd lease granted for a busy key
        }
        long seconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        ObjectNode grant = JSON.createObjectNode().put("TTL", seconds);
        JsonNode g = post("/v3/lease/grant", grant, "grant a lease for " + key);
        long leaseId = g.path("ID").asLong(0);
        if (leaseId == 0) {
            throw new LockException("etcd " + url + ": lease grant for " + key + " answered " + g);
        }
        ObjectNode txn = JSON.createObjectNode();
        ArrayNode compare = txn.putArray("compare");
        compare.addObject().put("key", k).put("target", "CREATE").put("result", "EQUAL").put("create_revision", 0);
        txn.putArray("success").addObject().putObject("request_put")
                .put("key", k).put("value", b64(owner)).put("lease", leaseId);
        JsonNode t;
        try {
            t = post("/v3/kv/txn", txn, "create " + key);
        } catch (LockException e) {
            revokeQuietly(leaseId);
            throw e;
        }
        if (!t.path("succeeded").asBoolean(false)) {
            revokeQuietly(leaseId);
            return Optional.empty();
        }
        long revision = t.path("header").path("revision").asLong(0);
        if (revision <= 0) {
            throw new LockException("etcd " + url + ": txn for " + key + " answered no revision: " + t);
        }
        return Optional.of(new Lease(key, owner, revision, ttl.toMillis(), sent + ttl.toNanos()));
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        Kv kv = read(b64(etcdKey(lease.key())), "renew " + lease.key());
        if (!holds(kv, lease)) {
            return Optional.empty();
        }
        ObjectNode req = JSON.createObjectNode().put("ID", kv.leaseId());
        JsonNode r = post("/v3/lease/keepalive", req, "keep " + lease.key() + " alive");
        JsonNode result = r.has("result") ? r.get("result") : r;
        if (result.path("TTL").asLong(0) <= 0) {
            return Optional.empty(); // the etcd lease expired: the key is gone or going
        }
        return Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L));
    }

    @Override
    public void release(Lease lease) throws LockException {
        Kv kv = read(b64(etcdKey(lease.key())), "release " + lease.key());
        if (holds(kv, lease)) {
            post("/v3/lease/revoke", JSON.createObjectNode().put("ID", kv.leaseId()), "revoke " + lease.key());
        }
    }

    private static boolean holds(Kv kv, Lease lease) {
        return kv != null && kv.value().equals(lease.owner()) && kv.createRevision() == lease.fencingToken()
                && kv.leaseId() != 0;
    }

    private Kv read(String b64Key, String what) throws LockException {
        JsonNode r = post("/v3/kv/range", JSON.createObjectNode().put("key", b64Key), what);
        JsonNode kvs = r.path("kvs");
        if (!kvs.isArray() || kvs.isEmpty()) {
            return null;
        }
        JsonNode kv = kvs.get(0);
        return new Kv(unb64(kv.path("value").asText("")), kv.path("create_revision").asLong(0),
                kv.path("lease").asLong(0));
    }

    private void revokeQuietly(long leaseId) {
        try {
            post("/v3/lease/revoke", JSON.createObjectNode().put("ID", leaseId), "revoke an unused lease");
        } catch (LockException e) {
            // it expires on its own
        }
    }

    private JsonNode post(String path, JsonNode body, String what) throws LockException {
        HttpRequest req = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        HttpResponse<String> resp;
        try {
            resp = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new LockException("etcd " + url + ": " + what + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("etcd " + url + ": " + what + " interrupted", e);
        }
        JsonNode json;
        try {
            // a streaming endpoint (keepalive) may answer several objects; the first is ours
            json = JSON.readTree(firstObject(resp.body()));
        } catch (IOException e) {
            throw new LockException("etcd " + url + ": " + what + " answered non-JSON (HTTP " + resp.statusCode()
                    + "): " + abbreviate(resp.body()), e);
        }
        if (resp.statusCode() != 200 || json == null || json.has("error")) {
            throw new LockException("etcd " + url + ": " + what + " failed (HTTP " + resp.statusCode() + "): "
                    + abbreviate(resp.body()));
        }
        return json;
    }

    private static String firstObject(String body) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return body.substring(0, i + 1);
            }
        }
        return body;
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }

    @Override
    public String kind() {
        return "etcd";
    }

    @Override
    public void close() {
        // java.net.http.HttpClient has no close() before Java 21; idle connections time out
    }
}
