package lockstep.nes.verifier;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.movie.Movie;

/**
 * An FCEUX movie as an input stream: frame n's power or soft-reset command happens at the
 * start of frame n (then, on a disk system, its disk insert/eject and side commands), then its
 * controller bytes are held for the frame. Past the movie's end
 * no buttons are pressed.
 */
public final class MovieInput implements InputSource {
    private final Movie movie;

    public MovieInput(Movie movie) {
        this.movie = movie;
    }

    @Override
    public void apply(int frame, Console console) {
        if (frame >= movie.frames().size()) {
            console.setButtons(0, 0);
            console.setButtons(1, 0);
            return;
        }
        Movie.Frame f = movie.frames().get(frame);
        if (f.power()) {
            console.power();
        } else if (f.reset()) {
            console.reset();
        }
        if (console.mapper() instanceof FdsBoard disk) {
            disk.movieCommands(f.commands());
        }
        console.setButtons(0, f.port0());
        console.setButtons(1, f.port1());
    }

    /** The movie (processes mode sends its frames to the engine hosts). */
    public Movie movie() {
        return movie;
    }

    @Override
    public int length() {
        return movie.frames().size();
    }
}
