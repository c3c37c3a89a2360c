package lockstep.nes.farm.lock;

/**
 * The lock server answered and refused this client (wrong user or password, no permission):
 * asking again changes nothing, unlike a server that is slow, restarting or not yet listening.
 */
public class LockRefusedException extends LockException {
    public LockRefusedException(String message) {
        super(message);
    }
}
