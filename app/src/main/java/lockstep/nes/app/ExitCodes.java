package lockstep.nes.app;

/**
 * What the exit code of every command means (docs/cli-contract.md). A command returns one of
 * these; {@link Main} maps what a command throws: {@link BadInput} to 2, anything else to 3.
 */
final class ExitCodes {
    private ExitCodes() {
    }

    /** The command did what was asked and every check passed. */
    static final int OK = 0;
    /** The check found a difference or a failure (a divergence, a failed test ROM). */
    static final int FAILED = 1;
    /** Bad input (a file, an option, a fault spec) or an output that cannot be written. */
    static final int BAD_INPUT = 2;
    /** An internal error: a bug, reported with one line. */
    static final int INTERNAL = 3;
    /**
     * The network or the peer ({@code netplay}): a handshake refused (another ROM, region or engine
     * build), no peer answering, a peer that vanished or left, a UDP port that cannot be bound.
     */
    static final int NETWORK = 4;
    /**
     * {@code verify}: an engine (threads mode) or engine host (processes mode) stalled, silent
     * past its stall threshold while the other ran ahead, and no state difference was shown (a
     * divergence in the same run exits 1).
     */
    static final int STALLED = 5;
    /** Stopped by SIGINT (128 + 2), after writing what was done so far. */
    static final int SIGINT = 130;
    /** Stopped by SIGTERM (128 + 15), after writing what was done so far. */
    static final int SIGTERM = 143;
}
