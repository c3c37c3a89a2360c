package lockstep.nes.core.demo;

/** An error in 6502 assembly source: the message names the line and the reason. */
public final class AsmException extends RuntimeException {
    private final int line;

    AsmException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    /** The 1-based source line of the error. */
    public int line() {
        return line;
    }
}
