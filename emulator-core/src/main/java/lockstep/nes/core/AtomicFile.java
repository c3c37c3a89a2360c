package lockstep.nes.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a whole file by the output rule of {@link OutputFile}: a regular file (or a new path)
 * goes to a temporary file in the same folder, forced to the disk and renamed over the target,
 * so a reader, a crash or a full disk never leaves half of it; a symbolic link is followed; a
 * character device or a FIFO is written in place, never replaced. The one writer of every file
 * the project saves: snapshots, battery saves, save slots, key settings, reports, screenshots,
 * the manifest.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /**
     * Writes {@code data} to {@code file}, replacing a file that is there. The folder must
     * exist. Refuses a target that is a folder (a rename would replace an empty one), so a
     * mistyped output path never removes anything. On failure the target is as it was and no
     * temporary file is left.
     */
    public static void write(Path file, byte[] data) throws IOException {
        try (OutputFile out = OutputFile.open(file)) {
            out.write(data);
            out.commit();
        }
    }

    /** {@link #write}, creating the folder (and its parents) first. */
    public static void writeCreatingFolder(Path file, byte[] data) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        write(file, data);
    }
}
