package lockstep.nes.desktop.nsf;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.nsf.NsfFile;
import lockstep.nes.core.nsf.NsfPlayer;
import lockstep.nes.ppu.Region;

/**
 * An NSF in the desktop app: which track plays, switching tracks (each starts from power-on, as a
 * player starts a song), and the lines shown on screen (title, artist, track).
 */
public final class NsfDeck {
    private final NsfFile file;
    private final Region region;
    private int track;

    /** A deck on {@code file}'s first song, on {@code region}'s console (null: the file's own). */
    public NsfDeck(NsfFile file, Region region) {
        this.file = file;
        this.region = region;
        this.track = file.firstSong();
    }

    public NsfFile file() {
        return file;
    }

    /** The track playing, 0-based. */
    public int track() {
        return track;
    }

    /** The console playing the present track from its start. */
    public Console console() {
        return NsfPlayer.console(file, track, region);
    }

    /**
     * Moves to the next track in the file's order (an NSFe playlist, else every track in turn;
     * after the last: the first).
     */
    public void next() {
        move(1);
    }

    /** Moves to the previous track in the file's order (before the first: the last). */
    public void previous() {
        move(-1);
    }

    private void move(int by) {
        final int[] order = file.order();
        int at = -1;
        for (int i = 0; i < order.length; i++) {
            if (order[i] == track) {
                at = i;
                break;
            }
        }
        // A track outside the playlist (the file's first song) moves to its first or last entry.
        at = at < 0 ? (by > 0 ? 0 : order.length - 1) : Math.floorMod(at + by, order.length);
        track = order[at];
    }

    /** Title, artist and "track n / N" (with the NSFe track name), for the screen. */
    public List<String> lines() {
        final List<String> out = new ArrayList<>();
        out.add(file.title().isEmpty() ? "(no title)" : file.title());
        if (!file.artist().isEmpty()) {
            out.add(file.artist());
        }
        final String name = file.trackName(track);
        out.add("track " + (track + 1) + " / " + file.songs() + (name.isEmpty() ? "" : ": " + name));
        return out;
    }
}
