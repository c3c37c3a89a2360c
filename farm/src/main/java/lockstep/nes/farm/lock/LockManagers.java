package lockstep.nes.farm.lock;

import lockstep.nes.farm.secret.UrlCredentials;

/**
 * Opens the lock manager a URL names:
 * <ul>
 *   <li>{@code postgresql://user:pass@host:port/db} (also {@code jdbc:postgresql://...})</li>
 *   <li>{@code sqlite:PATH} or {@code PATH.db} (one machine, several processes)</li>
 *   <li>{@code redis://[[user]:password@]host:port}, {@code rediss://...} over TLS</li>
 *   <li>{@code etcd://[user:password@]host:port}, {@code etcds://...[?cacert=FILE]} over TLS
 *       (etcd's gRPC API, through jetcd)</li>
 * </ul>
 */
public final class LockManagers {
    private LockManagers() {
    }

    public static LockManager open(String url) throws LockException {
        String scheme = scheme(url);
        switch (scheme) {
            case "postgresql":
            case "postgres":
            case "sqlite":
                return openSql(url);
            case "redis":
            case "rediss":
                return RedisLockManager.open(url);
            case "etcd":
            case "etcds":
                return EtcdLockManager.open(url);
            default:
                throw new LockException("unknown lock manager URL '" + mask(url)
                        + "' (expected postgresql://, sqlite:, redis://, rediss://, etcd:// or etcds://)");
        }
    }

    /** A PostgreSQL or SQLite lock manager on its own pool (the schema is migrated first). */
    private static LockManager openSql(String url) throws LockException {
        lockstep.nes.farm.store.StoreUrl u;
        try {
            u = lockstep.nes.farm.store.StoreUrl.parse(url);
        } catch (lockstep.nes.farm.store.StoreUrl.BadUrlException e) {
            throw new LockException(e.getMessage());
        }
        lockstep.nes.farm.store.Database db = null;
        try {
            db = lockstep.nes.farm.store.Database.open(u, 2);
            db.migrate();
            return new SqlLockManager(db, true);
        } catch (java.sql.SQLException e) {
            if (db != null) {
                db.close();
            }
            throw new LockException(e.getMessage(), e);
        }
    }

    /** The URL's scheme, lower case, read without parsing the rest (which may not parse). */
    static String scheme(String url) {
        String u = url.startsWith("jdbc:") ? url.substring(5) : url;
        int s = u.indexOf("://");
        if (s > 0) {
            return u.substring(0, s).toLowerCase(java.util.Locale.ROOT);
        }
        if (u.toLowerCase(java.util.Locale.ROOT).startsWith("sqlite:") || u.endsWith(".db")) {
            return "sqlite";
        }
        return "";
    }

    /** The URL with its password replaced, for messages and logs. */
    static String mask(String url) {
        return UrlCredentials.mask(url);
    }
}
