package lockstep.nes.app;

/**
 * Bad input or an output that cannot be written: the command ends with its message as one line
 * on stderr and exit code {@link ExitCodes#BAD_INPUT} (Main maps it).
 */
final class BadInput extends Exception {
    BadInput(String message) {
        super(message);
    }
}
