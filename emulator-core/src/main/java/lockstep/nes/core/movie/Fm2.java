package lockstep.nes.core.movie;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.TextFile;

/**
 * FCEUX's text movie format (.fm2): header lines {@code key value}, then one line per frame
 * {@code |commands|RLDUTSBA|RLDUTSBA|port2|}.
 *
 * <p>Commands: 1 = soft reset, 2 = power (hard reset), 4 = FDS disk insert/eject, 8 = FDS next
 * side (see {@code FdsBoard.movieCommands}); the VS coin command (16) is kept but does nothing here. In a gamepad column a '.' or ' ' is a released button and any other
 * character a pressed one. The column order RLDUTSBA is the reverse of the controller's shift
 * order (A = 0x01 ... Right = 0x80), so column i is bit 7 - i of a {@link Movie.Frame} mask.
 * Supported: standard gamepads or nothing on ports 0 and 1, nothing on port 2, no four-score,
 * text (not binary) frame data.
 */
public final class Fm2 {
    public static final int COMMAND_RESET = 1;
    public static final int COMMAND_POWER = 2;
    /** The disk system's insert/eject ({@code FdsBoard.COMMAND_INSERT}). */
    public static final int COMMAND_FDS_INSERT = 4;
    /** The disk system's next side ({@code FdsBoard.COMMAND_SELECT_SIDE}). */
    public static final int COMMAND_FDS_SIDE = 8;
    private static final String COLUMNS = "RLDUTSBA";

    private Fm2() {
    }

    public static Movie read(Path file) throws MovieException {
        String text;
        try {
            text = TextFile.read(file);
        } catch (IOException e) {
            throw new MovieException(e.getMessage());
        }
        return parse(text, file.toString());
    }

    public static Movie parse(String text, String source) throws MovieException {
        List<Movie.Header> header = new ArrayList<>();
        List<Movie.Frame> frames = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        int port0 = 1;
        int port1 = 1;
        boolean sawVersion = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int no = i + 1;
            if (line.isEmpty()) {
                continue;
            }
            if (line.charAt(0) == '|') {
                if (!sawVersion) {
                    throw error(source, no, "frame data before the 'version' header line");
                }
                frames.add(frame(line, port0, port1, source, no));
                continue;
            }
            if (!frames.isEmpty()) {
                throw error(source, no, "header line after frame data: '" + clip(line) + "'");
            }
            int sp = line.indexOf(' ');
            String key = sp < 0 ? line : line.substring(0, sp);
            String value = sp < 0 ? "" : line.substring(sp + 1);
            if (key.isEmpty() || !key.chars().allMatch(Character::isLetterOrDigit)) {
                throw error(source, no, "not a header line ('key value') or frame line ('|...|'): '" + clip(line) + "'");
            }
            switch (key) {
                case "version" -> {
                    if (!value.equals("3")) {
                        throw error(source, no, "unsupported fm2 version '" + value + "' (expected 3)");
                    }
                    sawVersion = true;
                }
                case "emuVersion", "rerecordCount" -> integer(value, key, source, no);
                case "palFlag", "NewPPU", "FDS", "microphone" -> flag(value, key, source, no);
                case "fourscore" -> {
                    if (flag(value, key, source, no)) {
                        throw error(source, no, "four-score movies are not supported");
                    }
                }
                case "binary" -> {
                    if (flag(value, key, source, no)) {
                        throw error(source, no, "binary fm2 frame data is not supported");
                    }
                }
                case "port0", "port1" -> {
                    int t = integer(value, key, source, no);
                    if (t != 0 && t != 1) {
                        throw error(source, no, key + " " + t + " is not supported (0 = none, 1 = gamepad)");
                    }
                    if (key.equals("port0")) {
                        port0 = t;
                    } else {
                        port1 = t;
                    }
                }
                case "port2" -> {
                    if (integer(value, key, source, no) != 0) {
                        throw error(source, no, "port2 (expansion port) devices are not supported");
                    }
                }
                default -> {
                }
            }
            header.add(new Movie.Header(key, value));
        }
        if (!sawVersion) {
            throw error(source, 1, "not an fm2 movie (no 'version 3' header line)");
        }
        return new Movie(header, frames);
    }

    private static Movie.Frame frame(String line, int port0, int port1, String source, int no) throws MovieException {
        if (!line.endsWith("|") || line.length() < 2) {
            throw error(source, no, "frame line must end with '|'");
        }
        String[] f = line.substring(1, line.length() - 1).split("\\|", -1);
        if (f.length != 4) {
            throw error(source, no, "frame line has " + f.length + " fields, expected 4 (|commands|port0|port1|port2|)");
        }
        int commands;
        try {
            commands = Integer.parseInt(f[0].trim());
        } catch (NumberFormatException e) {
            throw error(source, no, "commands field '" + clip(f[0]) + "' is not a number");
        }
        if (commands < 0 || commands > 0xFF) {
            throw error(source, no, "commands " + commands + " out of range 0-255");
        }
        int p0 = pad(f[1], port0, 0, source, no);
        int p1 = pad(f[2], port1, 1, source, no);
        if (!f[3].isEmpty()) {
            throw error(source, no, "port2 field must be empty");
        }
        return new Movie.Frame(commands, p0, p1);
    }

    private static int pad(String field, int type, int port, String source, int no) throws MovieException {
        if (type == 0) {
            if (!field.isEmpty()) {
                throw error(source, no, "port" + port + " has no device but its field is '" + clip(field) + "'");
            }
            return 0;
        }
        if (field.length() != 8) {
            throw error(source, no, "port" + port + " gamepad field '" + clip(field) + "' must have 8 characters ("
                    + COLUMNS + ")");
        }
        int mask = 0;
        for (int i = 0; i < 8; i++) {
            char c = field.charAt(i);
            if (c != '.' && c != ' ') {
                mask |= 1 << (7 - i);
            }
        }
        return mask;
    }

    private static int integer(String value, String key, String source, int no) throws MovieException {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw error(source, no, key + " '" + clip(value) + "' is not a number");
        }
    }

    private static boolean flag(String value, String key, String source, int no) throws MovieException {
        int v = integer(value, key, source, no);
        if (v != 0 && v != 1) {
            throw error(source, no, key + " must be 0 or 1, not " + v);
        }
        return v == 1;
    }

    private static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static MovieException error(String source, int line, String what) {
        return new MovieException(source + ":" + line + ": " + what);
    }

    /** The movie as fm2 text (header in its order, then the frames; LF line ends). */
    public static String format(Movie movie) {
        StringBuilder b = new StringBuilder();
        int port0 = 1;
        int port1 = 1;
        for (Movie.Header h : movie.header()) {
            b.append(h.key());
            if (!h.value().isEmpty()) {
                b.append(' ').append(h.value());
            }
            b.append('\n');
            if (h.key().equals("port0")) {
                port0 = Integer.parseInt(h.value().trim());
            } else if (h.key().equals("port1")) {
                port1 = Integer.parseInt(h.value().trim());
            }
        }
        for (Movie.Frame f : movie.frames()) {
            b.append('|').append(f.commands()).append('|');
            padText(b, port0, f.port0());
            b.append('|');
            padText(b, port1, f.port1());
            b.append("||\n");
        }
        return b.toString();
    }

    private static void padText(StringBuilder b, int type, int mask) {
        if (type == 0) {
            return;
        }
        for (int i = 0; i < 8; i++) {
            b.append((mask & (1 << (7 - i))) != 0 ? COLUMNS.charAt(i) : '.');
        }
    }

    public static void write(Movie movie, Path file) throws IOException {
        AtomicFile.write(file, format(movie).getBytes(StandardCharsets.UTF_8));
    }
}
