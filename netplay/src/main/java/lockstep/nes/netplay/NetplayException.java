package lockstep.nes.netplay;

/** A session that cannot start or go on, with a one-line reason. */
public final class NetplayException extends Exception {
    /** Why. */
    public enum Kind {
        /** The UDP port cannot be bound (in use, not allowed). */
        PORT,
        /** The handshake was refused: the ROM, region or engine build differs. */
        REFUSED,
        /** No peer answered within the handshake's time. */
        NO_ANSWER,
        /** The peer went silent (or left) mid-session. */
        PEER_LOST
    }

    private final Kind kind;

    public NetplayException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
