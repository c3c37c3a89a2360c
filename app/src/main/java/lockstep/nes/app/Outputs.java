package lockstep.nes.app;

import java.io.IOException;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.OutputFile;

/**
 * The outputs a command was asked to write: checked before any emulation starts (so a typo in a
 * path costs nothing) and written by {@link AtomicFile}'s rule at the end; a failure either way
 * is {@link BadInput} (one line naming the file, exit 2).
 */
final class Outputs {
    private Outputs() {
    }

    /** Checks that {@code file} (given with {@code option}) can be written; null is nothing asked. */
    static void check(Path file, String option) throws BadInput {
        if (file == null) {
            return;
        }
        try {
            OutputFile.check(file);
        } catch (IOException e) {
            throw new BadInput(file + ": cannot write " + option + " (" + e.getMessage() + ")");
        }
    }

    /** Writes {@code data} to {@code file} whole (see {@link AtomicFile}); {@code what} names it. */
    static void write(Path file, byte[] data, String what) throws BadInput {
        try {
            AtomicFile.write(file, data);
        } catch (IOException e) {
            throw new BadInput(file + ": cannot write " + what + " (" + e.getMessage() + ")");
        }
    }
}
