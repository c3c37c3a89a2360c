package lockstep.nes.core.snapshot;

import static lockstep.nes.core.snapshot.SnapshotFormat.*;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Rewrites one entry of a valid snapshot and signs it again (body length and CRC-32), so that
 * the only defect left is the value planted: how the tests make semantically impossible
 * snapshots (a scanline of -500) that pass every envelope check.
 */
public final class SnapshotEdit {
    private SnapshotEdit() {
    }

    /**
     * A copy of {@code snapshot} with entry {@code path} (a scalar, or every element of an int
     * array) set to {@code value}, written raw in the entry's width (a bool as the byte given).
     */
    public static byte[] plant(byte[] snapshot, String path, long value) {
        byte[] out = snapshot.clone();
        int end = out.length - TRAILER;
        int[] found = find(out, HEADER, end, "", path);
        if (found == null) {
            throw new AssertionError("no entry '" + path + "' in the snapshot");
        }
        int tag = found[0];
        int at = found[1];
        switch (tag) {
            case TAG_BOOL, TAG_U8 -> out[at] = (byte) value;
            case TAG_U16 -> {
                out[at] = (byte) (value >> 8);
                out[at + 1] = (byte) value;
            }
            case TAG_I32 -> putInt(out, at, (int) value);
            case TAG_I64 -> putLong(out, at, value);
            case TAG_INTS -> {
                int n = getInt(out, at);
                for (int i = 0; i < n; i++) {
                    putInt(out, at + 4 + 4 * i, (int) value);
                }
            }
            default -> throw new AssertionError("cannot plant a value in " + tagName(tag) + " '" + path + "'");
        }
        return sign(out);
    }

    /** Recomputes the body length and the checksum of {@code s} in place; returns it. */
    public static byte[] sign(byte[] s) {
        putInt(s, OFF_LENGTH, s.length - HEADER - TRAILER);
        CRC32 crc = new CRC32();
        crc.update(s, 0, s.length - TRAILER);
        putInt(s, s.length - TRAILER, (int) crc.getValue());
        return s;
    }

    /** {tag, offset of the value} of entry {@code path} in {@code b[from, to)}, or null. */
    private static int[] find(byte[] b, int from, int to, String prefix, String path) {
        int pos = from;
        while (pos < to) {
            int tag = b[pos] & 0xFF;
            int n = b[pos + 1] & 0xFF;
            String name = new String(b, pos + 2, n, StandardCharsets.ISO_8859_1);
            String full = prefix.isEmpty() ? name : prefix + "." + name;
            int value = pos + 2 + n;
            if (tag == TAG_SECTION) {
                int len = getInt(b, value);
                int[] inner = find(b, value + 4, value + 4 + len, full, path);
                if (inner != null) {
                    return inner;
                }
                pos = value + 4 + len;
                continue;
            }
            if (full.equals(path)) {
                return new int[] {tag, value};
            }
            pos = value + switch (tag) {
                case TAG_BOOL, TAG_U8 -> 1;
                case TAG_U16 -> 2;
                case TAG_I32 -> 4;
                case TAG_I64 -> 8;
                case TAG_BYTES -> 4 + getInt(b, value);
                case TAG_INTS -> 4 + 4 * getInt(b, value);
                default -> throw new AssertionError("unknown tag " + tag + " at " + pos);
            };
        }
        return null;
    }
}
