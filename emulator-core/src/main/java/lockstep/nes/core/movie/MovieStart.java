package lockstep.nes.core.movie;

import java.util.Arrays;
import java.util.Base64;

import lockstep.nes.core.Console;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.SnapshotFormat;
import lockstep.nes.core.snapshot.Snapshots;

/**
 * Where a movie starts. An FCEUX movie starts from power-on unless its {@code savestate} header
 * carries the state it was recorded from ({@code base64:} and the state's bytes). This
 * emulator's movies recorded from a state carry one of its own snapshots there; an FCEUX save
 * state cannot be loaded and is refused in one line.
 */
public final class MovieStart {
    /** The header key of a savestate-anchored movie. */
    public static final String SAVESTATE = "savestate";

    private MovieStart() {
    }

    /** True when {@code movie} starts from a save state rather than power-on. */
    public static boolean fromState(Movie movie) {
        String v = movie.get(SAVESTATE);
        return v != null && !v.isEmpty();
    }

    /** The header value that anchors a movie to {@code snapshot}. */
    public static String header(byte[] snapshot) {
        return "base64:" + Base64.getEncoder().encodeToString(snapshot);
    }

    /** The snapshot a savestate-anchored movie starts from (null for a power-on movie). */
    public static byte[] snapshot(Movie movie, String source) throws MovieException {
        String v = movie.get(SAVESTATE);
        if (v == null || v.isEmpty()) {
            return null;
        }
        byte[] data;
        try {
            data = Base64.getDecoder().decode(v.startsWith("base64:") ? v.substring(7) : v);
        } catch (IllegalArgumentException e) {
            throw new MovieException(source + ": the savestate header is not base64 (" + e.getMessage() + ")");
        }
        if (data.length < SnapshotFormat.MAGIC.length
                || !Arrays.equals(Arrays.copyOf(data, SnapshotFormat.MAGIC.length), SnapshotFormat.MAGIC)) {
            throw new MovieException(source + ": the movie starts from a save state of another emulator "
                    + "(FCEUX), which cannot be loaded here");
        }
        return data;
    }

    /**
     * Puts {@code console} where {@code movie} starts: loads the snapshot of a savestate-anchored
     * movie (a power-on movie needs nothing: the console starts powered on).
     */
    public static void begin(Movie movie, Console console, String source) throws MovieException {
        byte[] data = snapshot(movie, source);
        if (data == null) {
            return;
        }
        try {
            new Snapshots(console).load(data, data.length, source + " (savestate)");
        } catch (SnapshotException e) {
            throw new MovieException(e.getMessage());
        }
    }
}
