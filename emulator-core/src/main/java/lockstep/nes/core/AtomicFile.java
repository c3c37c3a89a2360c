package lockstep.nes.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a whole file so that a reader, a crash or a full disk never leaves half of it: the
 * bytes go to a temporary file in the same folder, are forced to the disk, and the temporary
 * file is renamed over the target (atomically where the file system can). The one writer of
 * every file the project saves: snapshots, battery saves, save slots, key settings, reports,
 * screenshots, the manifest.
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
        final Path target = file.toAbsolutePath();
        if (Files.isDirectory(target)) {
            throw new IOException("it is a folder");
        }
        final Path folder = target.getParent() != null ? target.getParent() : target.getRoot();
        if (!Files.isDirectory(folder)) {
            throw new IOException("no folder " + folder);
        }
        final Path tmp = Files.createTempFile(folder, "." + target.getFileName(), ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                final ByteBuffer buf = ByteBuffer.wrap(data);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
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
