package lockstep.nes.core.cheat;

/** A cheat code that cannot be used; the message names the code and the reason in one line. */
public final class CheatException extends Exception {
    public CheatException(String message) {
        super(message);
    }
}
