package lockstep.nes.core.nsf;

/** An NSF or NSFe file that cannot be played; the message names the file and the field in one line. */
public final class NsfFormatException extends Exception {
    public NsfFormatException(String message) {
        super(message);
    }
}
