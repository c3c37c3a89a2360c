package lockstep.nes.core.snapshot;

/** A snapshot that cannot be used; the message says in one line which check failed. */
public final class SnapshotException extends Exception {
    public SnapshotException(String message) {
        super(message);
    }
}
