package lockstep.nes.farm.lock;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import lockstep.nes.farm.secret.UrlCredentials;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Leases in Redis. For a key {@code K} three Redis keys share one hash slot:
 * <ul>
 *   <li>{@code lockstep:lock:{K}} — the holder, written with {@code SET … owner NX PX ttl};</li>
 *   <li>{@code lockstep:lock:{K}:held} — the holder's fencing token, expiring with it;</li>
 *   <li>{@code lockstep:lock:{K}:token} — the {@code INCR} counter, expiring {@value
 *       #TOKEN_IDLE_MS} ms after its lock's last use (acquire or renewal), so tokens increase
 *       across every lease issued for {@code K} while it is in use, and a finished job's keys
 *       do not stay in Redis for ever. The farm's store issues the fencing tokens it checks
 *       itself, so a count that restarts (this expiry, or a Redis restarted empty) only ever
 *       costs a lease, never a zombie write.</li>
 * </ul>
 * Acquire, renew and release are Lua scripts, each atomic on the server; renew and release
 * compare both the owner and the token, so a holder can never extend or free somebody else's
 * lease (nor an older lease of its own).
 *
 * <p>URL: {@code redis://[[user]:password@]host:port[/db][?timeout=ms]}, or
 * {@code rediss://...[&cacert=FILE]} over TLS (the CA's PEM file; without it the JVM's trusted
 * CAs). The timeout (connect, read and
 * pool wait; default 1000 ms) bounds every call, so a cut link is reported as an exception within
 * it — keep it below a third of the lease TTL. Thread-safe (a small connection pool).
 */
public final class RedisLockManager implements LockManager {
    static final String PREFIX = "lockstep:lock:";

    /** How long a key's token counter outlives its lock's last use. */
    static final long TOKEN_IDLE_MS = 86_400_000L;

    private static final String ACQUIRE =
            "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then\n"
            + "  local t = redis.call('INCR', KEYS[3])\n"
            + "  redis.call('PEXPIRE', KEYS[3], ARGV[3])\n"
            + "  redis.call('SET', KEYS[2], t, 'PX', ARGV[2])\n"
            + "  return t\n"
            + "end\n"
            + "return 0\n";
    private static final String RENEW =
            "if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[2] then\n"
            + "  redis.call('PEXPIRE', KEYS[1], ARGV[3])\n"
            + "  redis.call('PEXPIRE', KEYS[2], ARGV[3])\n"
            + "  redis.call('PEXPIRE', KEYS[3], ARGV[4])\n"
            + "  return 1\n"
            + "end\n"
            + "return 0\n";
    private static final String RELEASE =
            "if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[2] then\n"
            + "  return redis.call('DEL', KEYS[1], KEYS[2])\n"
            + "end\n"
            + "return 0\n";

    private final String url;
    private final JedisPool pool;
    private final HostAndPort address;
    private final long timeoutMillis;

    private RedisLockManager(String url, JedisPool pool, HostAndPort address, long timeoutMillis) {
        this.url = url;
        this.pool = pool;
        this.address = address;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Opens {@code redis[s]://[[user]:password@]host:port[/db][?timeout=ms][&cacert=FILE]}. Does
     * not connect until first used.
     */
    public static RedisLockManager open(String url) throws LockException {
        String shown = LockManagers.mask(url);
        UrlCredentials cred = credentials(url, "Redis");
        if (cred.user() != null && cred.password() == null) {
            throw new LockException("bad Redis URL '" + shown + "': a user without a password (expected "
                    + "redis://user:password@host:port, or redis://:password@host:port for the default user)");
        }
        URI u;
        try {
            u = URI.create(cred.rest());
        } catch (IllegalArgumentException e) {
            throw new LockException("bad Redis URL '" + shown + "': " + reason(e));
        }
        if (u.getHost() == null) {
            throw new LockException("bad Redis URL '" + shown + "': expected redis://host:port");
        }
        int port = u.getPort() < 0 ? 6379 : u.getPort();
        boolean tls = "rediss".equals(u.getScheme());
        int timeout = 1000;
        int db = 0;
        String password = null;
        SSLSocketFactory trust = null;
        if (u.getQuery() != null) {
            for (String kv : u.getQuery().split("&")) {
                if (kv.startsWith("timeout=")) {
                    try {
                        timeout = Integer.parseInt(kv.substring(8));
                    } catch (NumberFormatException e) {
                        throw new LockException("bad Redis URL '" + shown + "': timeout must be milliseconds");
                    }
                } else if (kv.startsWith("cacert=")) {
                    if (!tls) {
                        throw new LockException("bad Redis URL '" + shown + "': cacert needs rediss:// (TLS)");
                    }
                    trust = CaCertificates.socketFactory(Path.of(kv.substring(7)), "bad Redis URL '" + shown + "'");
                }
            }
        }
        if (u.getPath() != null && u.getPath().length() > 1) {
            try {
                db = Integer.parseInt(u.getPath().substring(1));
            } catch (NumberFormatException e) {
                throw new LockException("bad Redis URL '" + shown + "': database must be a number");
            }
        }
        String user = cred.user(); // redis://:pw@ is the default user
        password = cred.password();
        GenericObjectPoolConfig<Jedis> pc = new GenericObjectPoolConfig<>();
        pc.setMaxTotal(16);
        pc.setMaxIdle(16);
        pc.setMaxWait(Duration.ofMillis(timeout));
        pc.setJmxEnabled(false);
        JedisClientConfig cc = clientConfig(timeout, db, tls, trust, user, password);
        HostAndPort address = new HostAndPort(u.getHost(), port);
        return new RedisLockManager(shown, new JedisPool(pc, address, cc), address, timeout);
    }

    /**
     * The connection options: TLS for {@code rediss://} (the server's certificate checked against
     * {@code trust}, the {@code cacert} file's CAs, or without it the JVM's trusted CAs,
     * {@code -Djavax.net.ssl.trustStore}; and its name against the URL's host), and an ACL user
     * and password ({@code redis://user:pw@}) or the default user's password ({@code redis://:pw@}).
     */
    static JedisClientConfig clientConfig(int timeout, int db, boolean tls, SSLSocketFactory trust, String user,
            String password) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeout).socketTimeoutMillis(timeout).database(db)
                .clientName("lockstep-farm").ssl(tls)
                // RESP2: the scripts' answers are plain integers; no HELLO per connection (nor Jedis's warning about it)
                .autoNegotiateProtocol(false);
        if (tls) {
            SSLParameters p = new SSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS"); // Jedis checks no host name by itself
            cc.sslParameters(p);
            if (trust != null) {
                cc.sslSocketFactory(trust);
            }
        }
        if (password != null && !password.isEmpty()) {
            cc.password(password);
            if (user != null && !user.isEmpty()) {
                cc.user(user);
            }
        }
        return cc.build();
    }

    /** The URL's credentials split off; a bad one is a one-line error without the password. */
    static UrlCredentials credentials(String url, String what) throws LockException {
        try {
            return UrlCredentials.split(url);
        } catch (UrlCredentials.BadCredentialsException e) {
            throw new LockException(e.getMessage().replaceFirst("^bad URL", "bad " + what + " URL"));
        }
    }

    /** A URI parser's complaint without the input it repeats (the reason and the position). */
    static String reason(IllegalArgumentException e) {
        if (e.getCause() instanceof java.net.URISyntaxException s) {
            return s.getReason() + (s.getIndex() >= 0 ? " at index " + s.getIndex() : "");
        }
        return "not a URL";
    }

    static String lockKey(String key) {
        return PREFIX + "{" + key + "}";
    }

    @Override
    public Optional<Lease> tryAcquire(String key, String owner, Duration ttl) throws LockException {
        long sent = System.nanoTime();
        String k = lockKey(key);
        Object r = eval(ACQUIRE, List.of(k, k + ":held", k + ":token"),
                List.of(owner, Long.toString(ttl.toMillis()), Long.toString(Math.max(TOKEN_IDLE_MS, ttl.toMillis()))),
                "acquire " + key);
        long token = (Long) r;
        if (token == 0) {
            return Optional.empty();
        }
        return Optional.of(new Lease(key, owner, token, ttl.toMillis(), sent + ttl.toNanos()));
    }

    @Override
    public Optional<Lease> renew(Lease lease) throws LockException {
        long sent = System.nanoTime();
        String k = lockKey(lease.key());
        Object r = eval(RENEW, List.of(k, k + ":held", k + ":token"), List.of(lease.owner(),
                Long.toString(lease.fencingToken()), Long.toString(lease.ttlMillis()),
                Long.toString(Math.max(TOKEN_IDLE_MS, lease.ttlMillis()))), "renew " + lease.key());
        if ((Long) r == 0) {
            return Optional.empty();
        }
        return Optional.of(lease.renewedUntil(sent + lease.ttlMillis() * 1_000_000L));
    }

    @Override
    public void release(Lease lease) throws LockException {
        String k = lockKey(lease.key());
        eval(RELEASE, List.of(k, k + ":held"), List.of(lease.owner(), Long.toString(lease.fencingToken())),
                "release " + lease.key());
    }

    @Override
    public void check() throws LockException {
        try (Jedis j = pool.getResource()) {
            j.ping();
        } catch (JedisException e) {
            String problem = problem(e);
            if (problem.startsWith(REFUSED)) {
                throw new LockRefusedException("Redis " + url + ": " + problem);
            }
            throw new LockException("Redis " + url + ": " + problem);
        }
    }

    @Override
    public boolean listening() {
        return LockManager.listening(address.getHost(), address.getPort(), timeoutMillis);
    }

    private static final String REFUSED = "the server refused the credentials";

    /** What a failed call says about the server: credentials refused, unreachable, or its own words. */
    static String problem(JedisException e) {
        String m = String.valueOf(rootMessage(e));
        if (m.contains("WRONGPASS") || m.contains("NOAUTH") || m.contains("NOPERM") || e instanceof JedisAccessControlException) {
            return REFUSED + " (" + m + ")";
        }
        if (e instanceof JedisConnectionException) {
            return "cannot reach the server (" + m + ")";
        }
        return m;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && t.getMessage() != null && !t.getMessage().contains("WRONGPASS")) {
            t = t.getCause();
        }
        String m = t.getMessage() != null ? t.getMessage() : t.toString();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private Object eval(String script, List<String> keys, List<String> args, String what) throws LockException {
        try (Jedis j = pool.getResource()) {
            return j.eval(script, keys, args);
        } catch (JedisException e) {
            String problem = problem(e);
            if (problem.startsWith(REFUSED)) {
                // the password was changed under a running process: no retry can succeed
                throw new LockRefusedException("Redis " + url + ": " + problem);
            }
            throw new LockException("Redis " + url + ": " + what + " failed: " + problem, e);
        } catch (ClassCastException e) {
            throw new LockException("Redis " + url + ": " + what + " answered something unexpected", e);
        }
    }

    @Override
    public String kind() {
        return "redis";
    }

    @Override
    public void close() {
        pool.close();
    }
}
