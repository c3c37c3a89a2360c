package lockstep.nes.core.snapshot;

import lockstep.nes.state.StateEntry;
import lockstep.nes.state.StateJson;

import static lockstep.nes.core.snapshot.SnapshotFormat.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A snapshot read without an engine: header fields and the self-describing entries (for
 * {@code lockstep state dump/diff}). Parsing checks the envelope and the entry structure.
 */
public record SnapshotFile(int version, byte[] romSha256, long cycle, long frame, List<StateEntry> entries) {

    public static SnapshotFile read(Path file) throws SnapshotException {
        if (!Files.isRegularFile(file)) {
            throw new SnapshotException(file + ": " + (Files.exists(file) ? "not a file" : "not found"));
        }
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SnapshotException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(data, file.toString());
    }

    public static SnapshotFile parse(byte[] data, String source) throws SnapshotException {
        int end = Snapshots.verifyEnvelope(data, data.length, source, new CRC32());
        List<StateEntry> out = new ArrayList<>();
        parseEntries(data, HEADER, end, "", out, source, 0);
        byte[] rom = new byte[32];
        System.arraycopy(data, OFF_ROM, rom, 0, 32);
        return new SnapshotFile(getInt(data, OFF_VERSION), rom, getLong(data, OFF_CYCLE), getLong(data, OFF_FRAME), out);
    }

    public String romHex() {
        return RomId.hex(romSha256);
    }

    private static void parseEntries(byte[] b, int pos, int end, String prefix, List<StateEntry> out,
                                     String source, int depth) throws SnapshotException {
        while (pos < end) {
            if (pos + 2 > end) {
                throw bad(source, prefix, "entry header runs past its section");
            }
            int tag = b[pos] & 0xFF;
            int n = b[pos + 1] & 0xFF;
            pos += 2;
            if (pos + n > end) {
                throw bad(source, prefix, "entry name runs past its section");
            }
            String path = prefix + new String(b, pos, n, java.nio.charset.StandardCharsets.ISO_8859_1);
            pos += n;
            int size = switch (tag) {
                case TAG_BOOL, TAG_U8 -> 1;
                case TAG_U16 -> 2;
                case TAG_I32, TAG_BYTES, TAG_INTS, TAG_SECTION -> 4;
                case TAG_I64 -> 8;
                default -> throw bad(source, prefix, "unknown tag " + tag + " at '" + path + "'");
            };
            if (pos + size > end) {
                throw bad(source, prefix, "value of '" + path + "' runs past its section");
            }
            switch (tag) {
                case TAG_BOOL -> {
                    int v = b[pos];
                    if (v != 0 && v != 1) {
                        throw bad(source, prefix, "bool '" + path + "' has value " + v);
                    }
                    out.add(new StateEntry(path, tag, v, null, null));
                }
                case TAG_U8 -> out.add(new StateEntry(path, tag, b[pos] & 0xFF, null, null));
                case TAG_U16 -> out.add(new StateEntry(path, tag, ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF), null, null));
                case TAG_I32 -> out.add(new StateEntry(path, tag, getInt(b, pos), null, null));
                case TAG_I64 -> out.add(new StateEntry(path, tag, getLong(b, pos), null, null));
                default -> {
                }
            }
            pos += size;
            if (tag == TAG_BYTES || tag == TAG_INTS || tag == TAG_SECTION) {
                long count = getInt(b, pos - 4) & 0xFFFFFFFFL;
                long bytes = tag == TAG_INTS ? count * 4 : count;
                if (pos + bytes > end) {
                    throw bad(source, prefix, SnapshotFormat.tagName(tag) + " '" + path + "' runs past its section");
                }
                int len = (int) bytes;
                if (tag == TAG_BYTES) {
                    byte[] a = new byte[len];
                    System.arraycopy(b, pos, a, 0, len);
                    out.add(new StateEntry(path, tag, 0, a, null));
                } else if (tag == TAG_INTS) {
                    int[] a = new int[(int) count];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = getInt(b, pos + 4 * i);
                    }
                    out.add(new StateEntry(path, tag, 0, null, a));
                } else {
                    if (depth >= 16) {
                        throw bad(source, prefix, "sections nested too deep at '" + path + "'");
                    }
                    out.add(new StateEntry(path, tag, 0, null, null));
                    parseEntries(b, pos, pos + len, path + ".", out, source, depth + 1);
                }
                pos += len;
            }
        }
    }

    private static SnapshotException bad(String source, String prefix, String what) {
        return new SnapshotException(source + ": malformed entries" + (prefix.isEmpty() ? "" : " in '"
                + prefix.substring(0, prefix.length() - 1) + "'") + ": " + what);
    }

    /** This snapshot as JSON: format, rom, cycle, frame and the state. */
    public String json() {
        return lockstep.nes.state.StateJson.dump(version(), romHex(), cycle(), frame(), entries());
    }
}
