package lockstep.nes.farm.secret;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a server URL comes from, first match wins: the option itself ({@code --store URL}), a
 * file holding it ({@code --store-file FILE}: a Kubernetes Secret mounted as a file), or an
 * environment variable ({@code LOCKSTEP_STORE}). The file and the variable keep the password out
 * of the process's arguments, which every user of the machine can read ({@code ps}).
 */
public final class UrlSource {
    /** The URL cannot be read; the message names the option, file or variable, never the URL's password. */
    public static final class MissingUrlException extends Exception {
        private static final long serialVersionUID = 1L;

        public MissingUrlException(String message) {
            super(message);
        }
    }

    private UrlSource() {
    }

    /**
     * The URL given by {@code option} ({@code value}), else by {@code file}, else by the
     * environment variable {@code variable}; null when none is given. Giving both the option and
     * the file is an error (which one was meant is unknown).
     */
    public static String resolve(String option, String value, Path file, String variable, Map<String, String> env)
            throws MissingUrlException {
        if (value != null && file != null) {
            throw new MissingUrlException(option + " and " + option + "-file: give one of them");
        }
        if (value != null) {
            if (value.isBlank()) {
                throw new MissingUrlException(option + " is empty");
            }
            return value.strip();
        }
        if (file != null) {
            return read(option + "-file", file);
        }
        String v = env.get(variable);
        if (v != null) {
            if (v.isBlank()) {
                throw new MissingUrlException("environment variable " + variable + " is empty");
            }
            return v.strip();
        }
        return null;
    }

    /** The URL in {@code file}: its one non-blank line (a trailing newline is fine). */
    static String read(String option, Path file) throws MissingUrlException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new MissingUrlException(file + ": no such file (" + option + ")");
        } catch (IOException e) {
            throw new MissingUrlException(file + ": cannot read it (" + option + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() != null && !e.getMessage().contains(file.toString()) ? ", " + e.getMessage() : "") + ")");
        }
        String url = text.strip();
        if (url.isEmpty()) {
            throw new MissingUrlException(file + ": empty (" + option + " needs a file holding the URL)");
        }
        if (url.lines().count() > 1) {
            throw new MissingUrlException(file + ": more than one line (" + option + " needs a file holding only the URL)");
        }
        return url;
    }
}
