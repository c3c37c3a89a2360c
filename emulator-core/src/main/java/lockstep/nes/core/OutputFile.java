package lockstep.nes.core;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * One output file being written, by the rule every file the project writes follows:
 * <ul>
 * <li>a regular file, or a new path, is written to a temporary file in the same folder and
 * renamed over the target on {@link #commit} (atomically where the file system can), so a
 * reader, a crash or a full disk never sees half of it; the new file gets the mode a plain
 * creation would (the umask's), a replaced one keeps its mode;</li>
 * <li>a symbolic link is followed, and its target written by the same rule (the link stays);</li>
 * <li>a character device or a FIFO ({@code /dev/stdout}, {@code /dev/null}, a pipe to another
 * program) is written in place, streamed, never replaced;</li>
 * <li>a folder, a block device or a socket is refused.</li>
 * </ul>
 * {@link #close} without {@link #commit} abandons the output: the temporary file is removed and
 * the target is as it was.
 */
public final class OutputFile implements Closeable {
    /** POSIX file type bits (st_mode & S_IFMT). */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;
    private static final int MAX_LINKS = 40;

    private final Path target;
    private final Path tmp;
    private final FileChannel channel;
    private boolean done;

    private OutputFile(Path target, Path tmp, FileChannel channel) {
        this.target = target;
        this.tmp = tmp;
        this.channel = channel;
    }

    /**
     * Checks, without writing anything, that {@code file} can be written by the rule above: its
     * folder exists and is writable, and it is not a folder, a block device or a socket. Returns
     * the path that would be written (symbolic links followed). The message of the exception is
     * the reason alone (the caller names the file).
     */
    public static Path check(Path file) throws IOException {
        final Path abs = file.toAbsolutePath();
        if (streamed(abs)) {
            // Opened through its links by the OS: /dev/stdout links to /proc/self/fd/1, whose
            // own link text ("pipe:[N]") is no path.
            if (!Files.isWritable(abs)) {
                throw new IOException("not writable");
            }
            return abs;
        }
        final Path target = Files.exists(abs) ? abs.toRealPath() : followLinks(abs);
        final int type = type(target);
        if (Files.isDirectory(target)) {
            throw new IOException("it is a folder");
        }
        if (type == S_IFBLK) {
            throw new IOException("it is a block device (refused: it would be overwritten)");
        }
        if (type == S_IFSOCK) {
            throw new IOException("it is a socket");
        }
        final Path folder = folderOf(target);
        if (!Files.isDirectory(folder)) {
            throw new IOException(Files.exists(folder) ? folder + " is not a folder" : "no folder " + folder);
        }
        if (!Files.isWritable(folder)) {
            throw new IOException("folder " + folder + " is not writable");
        }
        if (Files.exists(target) && !Files.isWritable(target)) {
            throw new IOException("not writable");
        }
        return target;
    }

    /** Opens {@code file} for writing (see the class comment); {@link #check} first. */
    public static OutputFile open(Path file) throws IOException {
        final Path target = check(file);
        if (streamed(target)) {
            // Written in place: opened without create or truncate, as a shell redirect would.
            return new OutputFile(target, null, FileChannel.open(target, StandardOpenOption.WRITE));
        }
        final Path folder = folderOf(target);
        final String base = "." + target.getFileName() + "." + ProcessHandle.current().pid();
        for (int n = 0; ; n++) {
            final Path tmp = folder.resolve(base + "-" + n + ".tmp");
            final FileChannel ch;
            try {
                // No file attributes: the new file gets the mode of any plain creation (umask).
                ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
            } catch (FileAlreadyExistsException e) {
                if (n < 1000) {
                    continue;
                }
                throw e;
            }
            try {
                keepMode(target, tmp);
            } catch (IOException | RuntimeException e) {
                ch.close();
                Files.deleteIfExists(tmp);
                throw e;
            }
            return new OutputFile(target, tmp, ch);
        }
    }

    /** The file that is written (symbolic links followed). */
    public Path target() {
        return target;
    }

    /** True when bytes go to a temporary file that can be rewritten before {@link #commit}. */
    public boolean seekable() {
        return tmp != null;
    }

    public void write(byte[] data, int off, int len) throws IOException {
        final ByteBuffer buf = ByteBuffer.wrap(data, off, len);
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
    }

    public void write(byte[] data) throws IOException {
        write(data, 0, data.length);
    }

    /** Rewrites bytes at {@code position} (a header patched at the end); {@link #seekable} only. */
    public void writeAt(long position, byte[] data) throws IOException {
        if (tmp == null) {
            throw new IllegalStateException("a streamed output cannot be rewritten");
        }
        final ByteBuffer buf = ByteBuffer.wrap(data);
        long at = position;
        while (buf.hasRemaining()) {
            at += channel.write(buf, at);
        }
    }

    /**
     * Finishes the output: a temporary file is forced to the disk and renamed over the target;
     * a streamed one is closed. On failure nothing is left at the target that was not there.
     */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already finished");
        }
        done = true;
        if (tmp == null) {
            channel.close();
            return;
        }
        try {
            channel.force(true);
            channel.close();
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            channel.close();
            Files.deleteIfExists(tmp);
        }
    }

    /** Abandons the output unless it was committed: the temporary file is removed. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            channel.close();
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** The path a chain of symbolic links ends at (which may not exist yet). */
    private static Path followLinks(Path file) throws IOException {
        Path p = file;
        for (int i = 0; i < MAX_LINKS && Files.isSymbolicLink(p); i++) {
            p = folderOf(p).resolve(Files.readSymbolicLink(p)).normalize();
        }
        if (Files.isSymbolicLink(p)) {
            throw new IOException("too many levels of symbolic links");
        }
        return p;
    }

    /** True for a character device or a FIFO (links followed): written in place. */
    private static boolean streamed(Path p) {
        final int type = type(p, true);
        return type == S_IFCHR || type == S_IFIFO;
    }

    private static int type(Path p) {
        return type(p, false);
    }

    /** The file type bits of {@code p} (0 when it does not exist or the mode is not available). */
    private static int type(Path p, boolean followLinks) {
        try {
            final Object mode = followLinks ? Files.getAttribute(p, "unix:mode")
                    : Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return mode instanceof Integer m ? m & S_IFMT : 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
    }

    /** A replaced file keeps its permissions. */
    private static void keepMode(Path target, Path tmp) throws IOException {
        if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        final PosixFileAttributeView from = Files.getFileAttributeView(target, PosixFileAttributeView.class);
        final PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (from != null && to != null) {
            to.setPermissions(from.readAttributes().permissions());
        }
    }

    private static Path folderOf(Path file) {
        final Path abs = file.toAbsolutePath();
        return abs.getParent() != null ? abs.getParent() : abs.getRoot();
    }
}
