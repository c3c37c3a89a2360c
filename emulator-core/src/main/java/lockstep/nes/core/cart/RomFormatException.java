package lockstep.nes.core.cart;

/** A ROM file that cannot be used; the message names the file and the reason in one line. */
public final class RomFormatException extends Exception {
    public RomFormatException(String message) {
        super(message);
    }
}
