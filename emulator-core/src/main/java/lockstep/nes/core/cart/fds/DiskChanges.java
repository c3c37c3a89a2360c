package lockstep.nes.core.cart.fds;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.UserDirs;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.state.Memory;

/**
 * What a game wrote to its disk, kept as a file of changes in the user's data folder
 * ({@code saves/<image file name>-<CRC32 of the disk system>.fdschanges}), never in the image:
 * loaded before the game starts and saved when the command ends (the engine does no I/O).
 *
 * <p>Format (little-endian): "LSFD", a version (1), the CRC32 of the disk image the changes apply
 * to, the stream length; then runs of changed bytes of the disk's stream ({@link DiskLayout}):
 * an offset (4 bytes), a length (2 bytes), the bytes. Changes for another image are refused.
 */
public final class DiskChanges {
    private static final int MAGIC = 0x4446534C; // "LSFD"
    private static final int VERSION = 1;
    /** A run stops at this many unchanged bytes (shorter stretches are carried in the run). */
    private static final int JOIN = 8;

    private final Path file;
    private final int imageCrc;

    /** The changes file for the disk system {@code cart} loaded from {@code image}, in {@code dataDir}. */
    public DiskChanges(Path image, Cartridge cart, Path dataDir) {
        this(dataDir.resolve(image.getFileName() + "-" + cart.romCrc32() + ".fdschanges"), imageCrc(cart));
    }

    private DiskChanges(Path file, int imageCrc) {
        this.file = file;
        this.imageCrc = imageCrc;
    }

    private static int imageCrc(Cartridge cart) {
        return (int) Long.parseLong(Cartridge.crc32(cart.disk().bytes()), 16);
    }

    /** The changes of {@code cart}'s disk kept in {@code file} (a path the user gave). */
    public static DiskChanges inFile(Path file, Cartridge cart) {
        return new DiskChanges(file, imageCrc(cart));
    }

    /** The changes file for {@code image} in the default data folder ({@code saves} under it). */
    public DiskChanges(Path image, Cartridge cart) {
        this(image, cart, UserDirs.data().resolve("saves"));
    }

    /** Where the changes are kept. */
    public Path file() {
        return file;
    }

    /** Applies the saved changes to the board's disk; returns the file, or null when there are none yet. */
    public Path load(FdsBoard board) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        final byte[] data = Files.readAllBytes(file);
        final Memory disk = board.diskMemory();
        final byte[] target = disk.array();
        final ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (in.getInt() != MAGIC || in.getInt() != VERSION) {
                throw new IOException(file + ": not a disk changes file of this version");
            }
            if (in.getInt() != imageCrc) {
                throw new IOException(file + ": the changes are for another disk image");
            }
            if (in.getInt() != target.length) {
                throw new IOException(file + ": the changes are for a disk of another size");
            }
            while (in.hasRemaining()) {
                final int at = in.getInt();
                final int length = in.getShort() & 0xFFFF;
                if (at < 0 || at + length > target.length || length > in.remaining()) {
                    throw new IOException(file + ": a change lies outside the disk (offset " + at + ")");
                }
                in.get(target, at, length);
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException(file + ": cut short");
        }
        disk.rehash();
        return file;
    }

    /** Writes the board's disk changes (atomically); returns the file, or null when the disk is as loaded (nothing written). */
    public Path save(FdsBoard board) throws IOException {
        final byte[] written = board.diskMemory().array();
        final byte[] loaded = board.pristineDisk();
        final byte[] out = encode(loaded, written, imageCrc);
        if (out == null) {
            Files.deleteIfExists(file);
            return null;
        }
        AtomicFile.writeCreatingFolder(file, out);
        return file;
    }

    /** The changes file's bytes for a disk that went from {@code loaded} to {@code written}; null when nothing changed. */
    static byte[] encode(byte[] loaded, byte[] written, int imageCrc) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer head = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        head.putInt(MAGIC).putInt(VERSION).putInt(imageCrc).putInt(written.length);
        out.writeBytes(head.array());
        boolean any = false;
        int i = 0;
        while (i < written.length) {
            if (written[i] == loaded[i]) {
                i++;
                continue;
            }
            int end = i + 1;
            int same = 0;
            while (end < written.length && end - i < 0xFFFF && same < JOIN) {
                same = written[end] == loaded[end] ? same + 1 : 0;
                end++;
            }
            end -= same;
            ByteBuffer run = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN);
            run.putInt(i).putShort((short) (end - i));
            out.writeBytes(run.array());
            out.write(written, i, end - i);
            any = true;
            i = end;
        }
        return any ? out.toByteArray() : null;
    }
}
