package lockstep.nes.core.cart.fds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import lockstep.nes.core.cart.RomFormatException;

/**
 * A Famicom Disk System image: each disk side as the blocks written on it (NESdev "FDS disk
 * format"). Immutable; the drive works on a copy laid out with gaps ({@link DiskLayout}).
 *
 * <p>Formats read: {@code .fds} (65,500 bytes a side, blocks without their CRCs), with or without
 * the 16-byte fwNES header ("FDS\x1A", the side count, zeros), and {@code .qd} (65,536 bytes a
 * side, each block followed by its two CRC bytes). A side is a chain of blocks, each opening with
 * its code: 1, the disk info (56 bytes, "*NINTENDO-HVC*" after the code); 2, the file amount (2
 * bytes); then for each file 3, its header (16 bytes, the data size in bytes 13-14) and 4, its
 * data (1 + size bytes). Files past the count are read while a block 3 follows; the rest of the
 * side is empty (zeros). A chain that breaks (another code where one is expected) or runs past
 * the end is refused in one line naming the file, the side and the block.
 */
public final class DiskImage {
    /** Bytes of a side in an .fds image. */
    public static final int FDS_SIDE = 65500;
    /** Bytes of a side in a .qd image. */
    public static final int QD_SIDE = 65536;
    private static final int HEADER = 16;
    private static final byte[] VERIFY = "*NINTENDO-HVC*".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** The block codes. */
    public static final int DISK_INFO = 1;
    public static final int FILE_AMOUNT = 2;
    public static final int FILE_HEADER = 3;
    public static final int FILE_DATA = 4;

    private final String name;
    /** Per side, its blocks (each starting with its code, no CRC). */
    private final List<List<byte[]>> sides;
    /** The image's bytes as read (its identity for snapshots and saves). */
    private final byte[] original;

    private DiskImage(String name, List<List<byte[]>> sides, byte[] original) {
        this.name = name;
        this.sides = sides;
        this.original = original;
    }

    /** True when {@code data} starts like a disk image: the fwNES header or a disk info block. */
    public static boolean looksLikeDisk(byte[] data) {
        return hasHeader(data) || startsWithDiskInfo(data, 0);
    }

    private static boolean hasHeader(byte[] data) {
        return data.length >= 4 && data[0] == 'F' && data[1] == 'D' && data[2] == 'S' && data[3] == 0x1A;
    }

    private static boolean startsWithDiskInfo(byte[] data, int at) {
        if (data.length < at + 1 + VERIFY.length || data[at] != DISK_INFO) {
            return false;
        }
        for (int i = 0; i < VERIFY.length; i++) {
            if (data[at + 1 + i] != VERIFY[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses an image; {@code name} (the file) names it in errors, and its extension tells a
     * {@code .qd} image from an {@code .fds} one.
     */
    public static DiskImage parse(String name, byte[] data) throws RomFormatException {
        final boolean qd = name.toLowerCase(java.util.Locale.ROOT).endsWith(".qd");
        int offset = 0;
        int declared = -1;
        if (data.length == 0) {
            throw new RomFormatException(name + ": empty file");
        }
        if (hasHeader(data)) {
            if (data.length < HEADER) {
                throw new RomFormatException(name + ": truncated fwNES header (" + data.length + " bytes, need 16)");
            }
            declared = data[4] & 0xFF;
            if (declared == 0) {
                throw new RomFormatException(name + ": the fwNES header says 0 disk sides");
            }
            offset = HEADER;
        }
        final int sideSize = qd ? QD_SIDE : FDS_SIDE;
        final int body = data.length - offset;
        final int count = declared > 0 ? declared : Math.max(1, (body + sideSize - 1) / sideSize);
        if (declared > 0 && body < (long) (declared - 1) * sideSize + 1) {
            throw new RomFormatException(name + ": truncated: the header says " + declared + " sides, the file holds "
                    + (body / sideSize) + " whole side(s) and " + (body % sideSize) + " bytes");
        }
        List<List<byte[]>> sides = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            final int start = offset + s * sideSize;
            final int end = Math.min(data.length, start + sideSize);
            sides.add(parseSide(name, data, start, end, s, qd));
        }
        return new DiskImage(name, List.copyOf(sides), data.clone());
    }

    private static List<byte[]> parseSide(String name, byte[] data, int start, int end, int side, boolean qd)
            throws RomFormatException {
        final String where = name + ": side " + sideName(side);
        List<byte[]> blocks = new ArrayList<>();
        int at = start;
        int files = -1;
        int fileSize = -1;
        while (true) {
            final int index = blocks.size() + 1;
            final int expected = index == 1 ? DISK_INFO : index == 2 ? FILE_AMOUNT
                    : (index & 1) == 1 ? FILE_HEADER : FILE_DATA;
            if (at >= end) {
                if (index <= 2 || expected == FILE_DATA || index - 3 < files * 2) {
                    throw new RomFormatException(where + " block " + index + " (" + blockName(expected)
                            + "): truncated (the side ends at byte " + (at - start) + ")");
                }
                break;
            }
            final int code = data[at] & 0xFF;
            if (code != expected) {
                if (expected == FILE_HEADER && index - 3 >= files * 2 && code == 0) {
                    break; // past the last file: the empty rest of the side
                }
                throw new RomFormatException(where + " block " + index + ": block code " + code + " where "
                        + expected + " (" + blockName(expected) + ") belongs, at byte " + (at - start));
            }
            final int length = switch (code) {
                case DISK_INFO -> 56;
                case FILE_AMOUNT -> 2;
                case FILE_HEADER -> 16;
                default -> 1 + fileSize;
            };
            if (at + length > end) {
                throw new RomFormatException(where + " block " + index + " (" + blockName(code) + "): truncated ("
                        + length + " bytes from byte " + (at - start) + ", the side ends at byte " + (end - start) + ")");
            }
            if (code == DISK_INFO && !startsWithDiskInfo(data, at)) {
                throw new RomFormatException(where + " block 1 (disk info): no \"*NINTENDO-HVC*\" after the block code");
            }
            final byte[] block = Arrays.copyOfRange(data, at, at + length);
            if (code == FILE_AMOUNT) {
                files = block[1] & 0xFF;
            } else if (code == FILE_HEADER) {
                fileSize = (block[13] & 0xFF) | (block[14] & 0xFF) << 8;
            }
            blocks.add(block);
            at += length + (qd ? 2 : 0);
        }
        return List.copyOf(blocks);
    }

    /** "1A", "1B", "2A"... as the sides are printed on disks. */
    public static String sideName(int side) {
        return (side / 2 + 1) + ((side & 1) == 0 ? "A" : "B");
    }

    static String blockName(int code) {
        return switch (code) {
            case DISK_INFO -> "disk info";
            case FILE_AMOUNT -> "file amount";
            case FILE_HEADER -> "file header";
            case FILE_DATA -> "file data";
            default -> "unknown";
        };
    }

    /** The file's name, as errors give it. */
    public String name() {
        return name;
    }

    public int sideCount() {
        return sides.size();
    }

    /** The blocks of {@code side} (each starting with its code, without CRC); shared, do not change. */
    public List<byte[]> blocks(int side) {
        return sides.get(side);
    }

    /** Files a side's file amount block declares. */
    public int declaredFiles(int side) {
        return sides.get(side).get(1)[1] & 0xFF;
    }

    /** The image's bytes as read (a copy). */
    public byte[] bytes() {
        return original.clone();
    }
}
