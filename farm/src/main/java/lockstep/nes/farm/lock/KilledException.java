package lockstep.nes.farm.lock;

/**
 * Thrown by {@link KillSwitch#throwIfFired()} once the switch has fired: the lease the work ran
 * under is lost or about to be, so the work must stop and write nothing.
 *
 * <p>Unchecked on purpose: it is thrown from frame loops and callbacks deep inside the
 * emulation, where a checked exception would have to be threaded through every signature. Catch
 * it only at the job boundary (the worker), never to carry on with the same attempt.
 */
public final class KilledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KilledException(String reason) {
        super("killed: " + reason);
    }
}
