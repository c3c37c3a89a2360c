package lockstep.nes.farm.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import lockstep.nes.farm.secret.UrlCredentials;

/**
 * A parsed {@code --store} (or {@code --locks}) URL: {@code postgresql://user:pass@host:port/db}
 * (also {@code jdbc:postgresql://...}), or a SQLite file given as {@code sqlite:PATH} or a plain
 * path. Anything else is rejected with a one-line reason.
 *
 * @param dialect  which database
 * @param jdbcUrl  the JDBC URL without credentials
 * @param user     PostgreSQL user (null for SQLite)
 * @param password PostgreSQL password (may be null)
 * @param file     the SQLite file (null for PostgreSQL)
 * @param display  the URL with the password masked, for logs
 */
public record StoreUrl(Dialect dialect, String jdbcUrl, String user, String password, Path file, String display) {

    /** A URL that cannot be used. */
    public static final class BadUrlException extends Exception {
        public BadUrlException(String message) {
            super(message);
        }
    }

    public static StoreUrl parse(String url) throws BadUrlException {
        if (url == null || url.isBlank()) {
            throw new BadUrlException("empty store URL (expected postgresql://user:pass@host:port/db or a SQLite file)");
        }
        String u = url.strip();
        if (u.startsWith("jdbc:")) {
            u = u.substring(5);
        }
        String lower = u.toLowerCase(Locale.ROOT);
        if (lower.startsWith("postgresql://") || lower.startsWith("postgres://")) {
            return postgres(url, u);
        }
        if (lower.startsWith("sqlite:")) {
            return sqlite(url, u.substring("sqlite:".length()));
        }
        int colon = u.indexOf(':');
        if (u.contains("://") || (colon > 1 && !u.contains("/") && !u.contains("\\"))) {
            throw new BadUrlException("unsupported store URL '" + UrlCredentials.mask(url)
                    + "' (expected postgresql://user:pass@host:port/db, sqlite:PATH or a SQLite file path)");
        }
        return sqlite(url, u);
    }

    private static StoreUrl postgres(String original, String u) throws BadUrlException {
        UrlCredentials cred;
        try {
            cred = UrlCredentials.split("postgresql" + u.substring(u.indexOf("://")));
        } catch (UrlCredentials.BadCredentialsException e) {
            throw new BadUrlException(e.getMessage());
        }
        String shown = mask(original);
        URI uri;
        try {
            // the credentials are split off first, so no parser message can repeat the password
            uri = new URI(cred.rest());
        } catch (URISyntaxException e) {
            throw new BadUrlException("bad PostgreSQL URL '" + shown + "' (" + e.getReason() + ")");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new BadUrlException("bad PostgreSQL URL '" + shown + "': no host (expected postgresql://user:pass@host:port/db)");
        }
        String path = uri.getPath();
        if (path == null || path.length() < 2 || path.indexOf('/', 1) >= 0) {
            throw new BadUrlException("bad PostgreSQL URL '" + shown + "': no database name (expected postgresql://user:pass@host:port/db)");
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String jdbc = "jdbc:postgresql://" + (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port + path
                + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        return new StoreUrl(Dialect.POSTGRESQL, jdbc, cred.user(), cred.password(), null, shown);
    }

    private static StoreUrl sqlite(String original, String path) throws BadUrlException {
        if (path.startsWith("//")) {
            path = path.substring(2);
        }
        if (path.isBlank()) {
            throw new BadUrlException("bad SQLite store '" + original + "': no file name");
        }
        Path file = Path.of(path).toAbsolutePath().normalize();
        if (Files.isDirectory(file)) {
            throw new BadUrlException(file + ": is a folder, not a SQLite file");
        }
        Path parent = file.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BadUrlException(file + ": its folder " + parent + " does not exist");
        }
        return new StoreUrl(Dialect.SQLITE, "jdbc:sqlite:" + file, null, null, file, file.toString());
    }

    /** The URL with its password replaced by ***. */
    static String mask(String url) {
        return UrlCredentials.mask(url);
    }

    @Override
    public String toString() {
        return display;
    }
}
