package lockstep.nes.verifier;

/**
 * A session could not be set up: its engine hosts did not start, or refused the run's settings
 * (an {@code --inject} naming a field the state description lacks). The command line reports the
 * message on one line and exits 2.
 */
public final class SessionSetupException extends RuntimeException {
    public SessionSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
