package lockstep.nes.verifier.host;

/** An engine host that did not do its part: never a pass. */
public final class HostException extends Exception {
    /** What went wrong. */
    public enum Kind {
        /** The process could not be started, or ended before/while answering. */
        CRASHED,
        /** No answer within the timeout (the process is killed). */
        TIMEOUT,
        /** It spoke something else: bad magic, another protocol version, an unexpected message. */
        PROTOCOL,
        /** It answered a request with ERROR (e.g. a ROM it cannot load). */
        HOST_ERROR
    }

    private final Kind kind;
    private final String host;

    public HostException(Kind kind, String host, String message) {
        super(host + ": " + message);
        this.kind = kind;
        this.host = host;
    }

    public Kind kind() {
        return kind;
    }

    /** The host's label (baseline / candidate). */
    public String host() {
        return host;
    }
}
