package lockstep.nes.farm.lock;

/** The lock manager could not be reached, timed out, or answered something unexpected. */
public class LockException extends Exception {
    public LockException(String message) {
        super(message);
    }

    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
