package lockstep.nes.farm.secret;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A server URL split into its credentials and the rest, read by hand rather than by {@link
 * java.net.URI}: a password may hold any character ({@code /}, {@code ?}, {@code #}, {@code @}),
 * and the parser's error messages would otherwise repeat it. The credentials are everything
 * between {@code ://} and the last {@code @}; the user ends at the first {@code :}. Both are
 * percent-decoded ({@code %2F} is {@code /}); a {@code +} is a plus sign, never a space (that is
 * the rule of HTML forms, not of URLs).
 *
 * @param scheme   the scheme, lower case ("" when the URL has no {@code ://})
 * @param user     the decoded user, or null when the URL names none
 * @param password the decoded password, or null when the URL has no {@code :} in its credentials
 * @param rest     the URL without its credentials ({@code scheme://host:port/path?query})
 * @param display  the URL with its password replaced by {@code ***}: the only form ever shown
 */
public record UrlCredentials(String scheme, String user, String password, String rest, String display) {

    /** A URL whose credentials cannot be read; its message never holds the password. */
    public static final class BadCredentialsException extends Exception {
        private static final long serialVersionUID = 1L;

        public BadCredentialsException(String message) {
            super(message);
        }
    }

    /** Splits {@code url}; a URL without {@code ://} has no credentials. */
    public static UrlCredentials split(String url) throws BadCredentialsException {
        int s = url.indexOf("://");
        if (s < 0) {
            return new UrlCredentials("", null, null, url, url);
        }
        String scheme = url.substring(0, s).toLowerCase(Locale.ROOT);
        int at = url.lastIndexOf('@');
        if (at < s) {
            return new UrlCredentials(scheme, null, null, url, url);
        }
        String info = url.substring(s + 3, at);
        String rest = url.substring(0, s + 3) + url.substring(at + 1);
        String display = mask(url);
        int c = info.indexOf(':');
        String user = decode(c < 0 ? info : info.substring(0, c), "user", display);
        String password = c < 0 ? null : decode(info.substring(c + 1), "password", display);
        return new UrlCredentials(scheme, user.isEmpty() ? null : user, password, rest, display);
    }

    /**
     * The URL with everything after the user's {@code :} up to the last {@code @} replaced by
     * {@code ***}, and so is a {@code password=} query parameter. Safe on any text: it never throws, and a string that is no URL comes back whole.
     */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        int s = url.indexOf("://");
        int at = url.lastIndexOf('@');
        String masked = url;
        if (s >= 0 && at > s) {
            String info = url.substring(s + 3, at);
            int c = info.indexOf(':');
            masked = c < 0 ? url : url.substring(0, s + 3) + info.substring(0, c) + ":***" + url.substring(at);
        }
        // a password given as a query parameter (PostgreSQL's JDBC driver reads one)
        return masked.replaceAll("(?i)([?&]password=)[^&#]*", "$1***");
    }

    /**
     * Percent-decodes one credential ({@code +} stays a plus). A bad escape is reported without
     * the credential's text.
     */
    static String decode(String s, String what, String display) throws BadCredentialsException {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            if (in[i] != '%') {
                out.write(in[i]);
                continue;
            }
            int hi = i + 2 < in.length ? Character.digit(in[i + 1], 16) : -1;
            int lo = i + 2 < in.length ? Character.digit(in[i + 2], 16) : -1;
            if (hi < 0 || lo < 0) {
                throw new BadCredentialsException("bad URL '" + display + "': the " + what
                        + " has a '%' not followed by two hex digits (write a literal % as %25)");
            }
            out.write(hi << 4 | lo);
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return display;
    }
}
