package lockstep.nes.desktop.nsf;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.nsf.NsfFile;
import lockstep.nes.core.nsf.NsfFormatException;
import lockstep.nes.ppu.Region;

/**
 * The window's NSF player: a file opened is played as a deck of tracks instead of a game, and the
 * track keys move through them (each track starts from power-on, as a player starts a song).
 * What the keys do is here; the window only opens a session on {@link #console}.
 */
public final class NsfTracks {
    private NsfDeck deck;

    /**
     * Opens {@code image} on {@code region}'s console (null: the file's own) when it is an NSF
     * or NSFe (true); anything else leaves no NSF playing (false).
     */
    public boolean open(RomFile.Image image, Region region) throws NsfFormatException {
        deck = null;
        if (!NsfFile.looksLike(image.bytes())) {
            return false;
        }
        deck = new NsfDeck(NsfFile.parse(image.name(), image.bytes()), region);
        return true;
    }

    /** No NSF playing any more (a game was opened, or the file failed). */
    public void close() {
        deck = null;
    }

    public boolean playing() {
        return deck != null;
    }

    /** The track playing, 0-based (-1 with no NSF). */
    public int track() {
        return deck != null ? deck.track() : -1;
    }

    /**
     * A track key: the next ({@code forward}) or the previous track, wrapping around. Returns
     * the message to show when there is no NSF to switch (nothing changes), else null.
     */
    public String step(boolean forward) {
        if (deck == null) {
            return "no NSF is playing";
        }
        if (forward) {
            deck.next();
        } else {
            deck.previous();
        }
        return null;
    }

    /** A console playing the present track from its start. */
    public Console console() {
        return deck.console();
    }

    /** The lines shown while it plays (title, artist, track); empty with no NSF. */
    public List<String> lines() {
        return deck != null ? deck.lines() : List.of();
    }
}
