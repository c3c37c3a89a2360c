package lockstep.nes.app;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.OutputFile;

/**
 * The outputs a command was asked to write: checked before any emulation starts (so a typo in a
 * path costs nothing) and written by {@link AtomicFile}'s rule at the end; a failure either way
 * is {@link BadInput} (one line naming the file, exit 2).
 *
 * <p>An output never replaces one of the command's inputs (the ROM, a movie, a state, a jar, a
 * manifest, the jar this program runs from): the same file under another path, through a
 * symbolic link or a hard link is the same file (compared by the file system's identity of the
 * file, not by name). A character device or a FIFO is written in place and replaces nothing.
 */
final class Outputs {
    private Outputs() {
    }

    /**
     * Checks that {@code file} (given with {@code option}) can be written and is none of
     * {@code inputs} (nulls skipped); null {@code file} is nothing asked.
     */
    static void check(Path file, String option, Path... inputs) throws BadInput {
        if (file == null) {
            return;
        }
        final Path target;
        try {
            target = OutputFile.check(file);
        } catch (IOException e) {
            throw new BadInput(file + ": cannot write " + option + " (" + e.getMessage() + ")");
        }
        Path input = sameAsInput(target, inputs);
        if (input != null) {
            throw new BadInput(file + ": " + option + " would overwrite an input of this command"
                    + (input.equals(file) ? "" : " (" + input + ")") + "; nothing was written");
        }
    }

    /** The input that {@code target} (an output's path, links followed) is, or null. */
    private static Path sameAsInput(Path target, Path... inputs) {
        if (!Files.isRegularFile(target)) {
            // A new file replaces nothing; a device or a FIFO is written in place.
            return null;
        }
        for (Path in : inputs) {
            if (same(target, in)) {
                return in;
            }
        }
        Path jar = ownJar();
        return same(target, jar) ? jar : null;
    }

    private static boolean same(Path target, Path input) {
        if (input == null) {
            return false;
        }
        try {
            return Files.exists(input) && Files.isSameFile(target, input);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** The jar (or classes folder) this program runs from, or null. */
    private static Path ownJar() {
        try {
            var source = Outputs.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
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
