package lockstep.nes.core.movie;

/** A movie that cannot be used; the message names the file, the line and the reason. */
public final class MovieException extends Exception {
    public MovieException(String message) {
        super(message);
    }
}
