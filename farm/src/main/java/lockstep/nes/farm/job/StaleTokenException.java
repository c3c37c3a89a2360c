package lockstep.nes.farm.job;

/** A fenced write changed no row: a newer token holds the job, so this attempt must stop. */
public final class StaleTokenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StaleTokenException(String message) {
        super(message);
    }
}
