package lockstep.nes.app;

import java.nio.file.Path;
import lockstep.nes.farm.secret.UrlSource;
import picocli.CommandLine.Option;

/**
 * The farm's {@code --store} and {@code --store-file} options (and {@code LOCKSTEP_STORE}): a
 * password given in a file or the environment stays out of the process's arguments, which any
 * user of the machine can read with {@code ps}.
 */
final class FarmUrls {
    static final String STORE_HELP = "the store: postgresql://user:pass@host:port/db or a SQLite file (sqlite:PATH or PATH); "
            + "or --store-file, or $LOCKSTEP_STORE (keeps a password out of `ps`)";

    @Option(names = "--store", paramLabel = "URL", description = STORE_HELP)
    String store;

    @Option(names = "--store-file", paramLabel = "FILE", description = "a file holding the store URL (e.g. a mounted Secret)")
    Path storeFile;

    /** The store URL from the option, the file or {@code LOCKSTEP_STORE}; null when none is given. */
    String storeOrNull() throws BadInput {
        return resolve("--store", store, storeFile, "LOCKSTEP_STORE");
    }

    /** The store URL; bad input when none is given. */
    String store() throws BadInput {
        String s = storeOrNull();
        if (s == null) {
            throw new BadInput("--store URL is required (or --store-file FILE, or the environment variable LOCKSTEP_STORE)");
        }
        return s;
    }

    static String resolve(String option, String value, Path file, String variable) throws BadInput {
        try {
            return UrlSource.resolve(option, value, file, variable, System.getenv());
        } catch (UrlSource.MissingUrlException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** {@code --locks} and {@code --locks-file} (and {@code LOCKSTEP_LOCKS}). */
    static final class Locks {
        @Option(names = "--locks", paramLabel = "URL",
                description = "lock manager: postgresql://..., sqlite:PATH, redis://[user:pass@]host:port or "
                        + "etcd://[user:pass@]host:port; over TLS rediss://...?cacert=CA.pem or etcds://...?cacert=CA.pem "
                        + "(default: the store); or --locks-file, or $LOCKSTEP_LOCKS")
        String locks;

        @Option(names = "--locks-file", paramLabel = "FILE", description = "a file holding the lock manager's URL")
        Path locksFile;

        /** The lock manager's URL, or null for the store's own. */
        String locks() throws BadInput {
            return resolve("--locks", locks, locksFile, "LOCKSTEP_LOCKS");
        }
    }
}
