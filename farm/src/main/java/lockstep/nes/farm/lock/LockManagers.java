package lockstep.nes.farm.lock;

import java.net.URI;

/**
 * Opens the lock manager a URL names:
 * <ul>
 *   <li>{@code postgresql://user:pass@host:port/db} (also {@code jdbc:postgresql://...})</li>
 *   <li>{@code sqlite:PATH} or {@code PATH.db} (one machine, several processes)</li>
 *   <li>{@code redis://host:port}</li>
 *   <li>{@code etcd://host:port} (etcd's v3 JSON gateway)</li>
 * </ul>
 */
public final class LockManagers {
    private LockManagers() {
    }

    public static LockManager open(String url) throws LockException {
        String scheme = scheme(url);
        switch (scheme) {
            case "redis":
                return RedisLockManager.open(url);
            case "etcd":
                return EtcdLockManager.open(url);
            case "postgresql":
            case "sqlite":
                throw new LockException("lock manager '" + scheme + "' is not implemented yet: " + url);
            default:
                throw new LockException("unknown lock manager URL '" + url
                        + "' (expected postgresql://, sqlite:, redis:// or etcd://)");
        }
    }

    static String scheme(String url) {
        String u = url.startsWith("jdbc:") ? url.substring(5) : url;
        if (u.endsWith(".db") && !u.contains("://")) {
            return "sqlite";
        }
        try {
            String s = URI.create(u).getScheme();
            return s == null ? "" : s.toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
