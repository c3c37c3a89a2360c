package lockstep.nes.desktop;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieStart;

/**
 * Records what the player does, frame by frame, as an FCEUX movie. A recording starts from
 * power-on (the session power-cycles the console first), or from the present state, which the
 * movie then carries in its {@code savestate} header as FCEUX's savestate-anchored movies do; a
 * reset or power cycle pressed while recording becomes that frame's command.
 */
public final class MovieRecorder {
    private final List<Movie.Header> header;
    private final List<Movie.Frame> frames = new ArrayList<>();
    private int pendingCommands;

    public MovieRecorder(String romFilename, Cartridge cart) {
        this(romFilename, cart, null);
    }

    /** A recording that starts from {@code snapshot} (null: from power-on). */
    public MovieRecorder(String romFilename, Cartridge cart, byte[] snapshot) {
        List<Movie.Header> h = new ArrayList<>(
                Movie.defaultHeader(romFilename, romChecksum(cart), UUID.randomUUID().toString().toUpperCase()));
        if (cart.disk() != null) {
            // FCEUX marks a disk system's movie (its FDS commands then act on the drive).
            h.replaceAll(x -> x.key().equals("FDS") ? new Movie.Header("FDS", "1") : x);
        }
        if (snapshot != null) {
            h.add(new Movie.Header(MovieStart.SAVESTATE, MovieStart.header(snapshot)));
        }
        this.header = h;
    }

    /** FCEUX's romChecksum: "base64:" and the MD5 of PRG then CHR ROM. */
    static String romChecksum(Cartridge cart) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(cart.prg());
            md.update(cart.chr());
            return "base64:" + Base64.getEncoder().encodeToString(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A soft reset or power cycle ({@code Fm2.COMMAND_*}) happens before the next frame. */
    public void command(int command) {
        pendingCommands |= command;
    }

    /** The next frame runs with these buttons. */
    public void frame(int buttons0, int buttons1) {
        frames.add(new Movie.Frame(pendingCommands, buttons0 & 0xFF, buttons1 & 0xFF));
        pendingCommands = 0;
    }

    public int frames() {
        return frames.size();
    }

    public Movie movie() {
        return new Movie(header, frames);
    }
}
