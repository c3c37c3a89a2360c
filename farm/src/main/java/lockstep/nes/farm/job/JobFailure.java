package lockstep.nes.farm.job;

/**
 * The attempt could not produce a result (a crashed engine host, an unreadable file on this
 * machine): the job is retried with backoff, and dead-lettered after the last attempt.
 */
public class JobFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public JobFailure(String message) {
        super(message);
    }

    public JobFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
