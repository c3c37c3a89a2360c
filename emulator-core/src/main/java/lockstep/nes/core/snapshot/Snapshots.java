package lockstep.nes.core.snapshot;

import static lockstep.nes.core.snapshot.SnapshotFormat.*;

import java.util.Arrays;
import java.util.zip.CRC32;

import lockstep.nes.core.Console;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.Stateful;

/**
 * Saves and loads canonical snapshots ({@link SnapshotFormat}) of one engine, reusing its
 * buffers. Loading validates everything (envelope, checksum, ROM, then every entry against the
 * engine's own description) before the first value reaches the engine, so a bad snapshot leaves
 * the engine exactly as it was.
 */
public final class Snapshots {
    private final Console console;
    private final byte[] rom;
    private final SnapshotWriter writer = new SnapshotWriter(32 * 1024);
    private final SnapshotReader reader = new SnapshotReader();
    private final CRC32 crc = new CRC32();

    public Snapshots(Console console) {
        this.console = console;
        this.rom = RomId.sha256(console.cartridge());
    }

    public byte[] romSha256() {
        return rom.clone();
    }

    /** Writes a snapshot into the internal buffer ({@link #buffer()}) and returns its length. */
    public int saveToBuffer() {
        return encode(console, rom, console.cycles(), console.frame(), console.region(), writer, crc);
    }

    /**
     * Encodes a whole snapshot of {@code root} (header, entries, checksum) into {@code w} from
     * position 0 and returns its length.
     */
    public static int encode(Stateful root, byte[] romSha256, long cycle, long frame, SnapshotWriter w, CRC32 crc) {
        return encode(root, romSha256, cycle, frame, Region.NTSC, w, crc);
    }

    /** As above, for a console of {@code region} (recorded after the sections unless NTSC). */
    public static int encode(Stateful root, byte[] romSha256, long cycle, long frame, Region region, SnapshotWriter w,
                             CRC32 crc) {
        w.reset(0);
        w.putRaw(MAGIC, 0, MAGIC.length);
        w.putRawInt(VERSION);
        w.putRaw(romSha256, 0, 32);
        w.putRawLong(cycle);
        w.putRawLong(frame);
        w.putRawInt(0);
        root.state(w);
        if (region != Region.NTSC) {
            w.u8(REGION_ENTRY, region.ordinal());
        }
        int end = w.position();
        byte[] b = w.buffer();
        putInt(b, OFF_LENGTH, end - HEADER);
        crc.reset();
        crc.update(b, 0, end);
        w.putRawInt((int) crc.getValue());
        return w.position();
    }

    /** The buffer {@link #saveToBuffer} wrote into (valid up to the length it returned). */
    public byte[] buffer() {
        return writer.buffer();
    }

    /** A new array holding a snapshot of the current state. */
    public byte[] save() {
        int n = saveToBuffer();
        return Arrays.copyOf(writer.buffer(), n);
    }

    /** SHA-256 (hex) of the canonical snapshot of the current state: the state hash. */
    public String stateHash() {
        int n = saveToBuffer();
        var md = RomId.sha256();
        md.update(writer.buffer(), 0, n);
        return RomId.hex(md.digest());
    }

    public void load(byte[] data) throws SnapshotException {
        load(data, data.length, "snapshot");
    }

    /**
     * Loads {@code data[0, length)}. On any failure throws with a one-line message starting with
     * {@code source} and leaves the engine untouched.
     */
    public void load(byte[] data, int length, String source) throws SnapshotException {
        verifyEnvelope(data, length, source, crc);
        if (!Arrays.equals(data, OFF_ROM, OFF_ROM + 32, rom, 0, 32)) {
            throw new SnapshotException(source + ": snapshot is of another ROM (sha256 "
                    + RomId.hex(Arrays.copyOfRange(data, OFF_ROM, OFF_ROM + 32)) + ", this ROM "
                    + RomId.hex(rom) + ")");
        }
        int bodyEnd = length - TRAILER;
        final int regionAt = regionEntry(data, HEADER, bodyEnd);
        final Region region = regionAt < 0 ? Region.NTSC : REGIONS[data[bodyEnd - 1] & 0xFF];
        if (region != console.region()) {
            throw new SnapshotException(source + ": snapshot is of a " + region.displayName() + " console, this one is "
                    + console.region().displayName() + " (run it with --region " + region.id() + ")");
        }
        if (regionAt >= 0) {
            bodyEnd = regionAt;
        }
        final boolean cheats = hasSection(data, HEADER, bodyEnd, CHEATS_SECTION);
        SnapshotReader r = reader;
        try {
            r.reset(data, HEADER, bodyEnd, false);
            console.state(r, cheats);
            r.finish();
        } catch (SnapshotReader.Mismatch e) {
            throw new SnapshotException(source + ": " + e.getMessage());
        }
        checkClock(data, bodyEnd, source, region);
        // Validated: the same walk cannot fail now.
        r.reset(data, HEADER, bodyEnd, true);
        console.state(r, cheats);
        r.finish();
    }

    private static final Region[] REGIONS = Region.values();
    private static final byte[] CHEATS_SECTION = "cheats".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** True when a top-level entry of {@code data[pos, end)} is a section named {@code name}. */
    static boolean hasSection(byte[] data, int pos, int end, byte[] name) {
        while (pos + 2 <= end) {
            final int tag = data[pos] & 0xFF;
            final int nameLength = data[pos + 1] & 0xFF;
            final int value = pos + 2 + nameLength;
            if (tag != TAG_SECTION || value + 4 > end) {
                return false;
            }
            if (nameLength == name.length && Arrays.equals(data, pos + 2, value, name, 0, name.length)) {
                return true;
            }
            final int length = getInt(data, value);
            if (length < 0) {
                return false;
            }
            pos = value + 4 + length;
        }
        return false;
    }

    /**
     * The clock of a snapshot whose layout was validated: the header's cycle is the body's
     * {@code console.cycle}, and the master clock is where that cycle puts it. Every CPU cycle
     * is {@code cpuDivider} master clocks and power-on sets the cycle to -1 with the master clock
     * one divider in, so between cycles {@code masterClock == cpuDivider * (cycle + 2)}; a
     * cycle of -1 is the power-on state, before any master clock has run.
     */
    private static void checkClock(byte[] data, int bodyEnd, String source, Region region) throws SnapshotException {
        final long header = getLong(data, OFF_CYCLE);
        final long cycle = consoleLong(data, bodyEnd, "cycle");
        final long clock = consoleLong(data, bodyEnd, "masterClock");
        if (cycle != header) {
            throw new SnapshotException(source + ": the header's cycle " + header + " disagrees with console.cycle = "
                    + cycle);
        }
        final long expected = region.cpuDivider * (cycle + 2);
        if (clock != expected) {
            throw new SnapshotException(source + ": console.cycle = " + cycle + " disagrees with console.masterClock = "
                    + clock + " (cycle " + cycle + " puts it at " + expected + ")");
        }
    }

    /**
     * The i64 entry {@code name} of the body's first section ("console"), whose layout was
     * validated against the engine's description.
     */
    private static long consoleLong(byte[] data, int bodyEnd, String name) {
        final int sectionName = data[HEADER + 1] & 0xFF;
        int pos = HEADER + 2 + sectionName + 4;
        final int sectionEnd = Math.min(bodyEnd, pos + getInt(data, pos - 4));
        while (pos + 2 <= sectionEnd) {
            final int tag = data[pos] & 0xFF;
            final int nameLength = data[pos + 1] & 0xFF;
            final int value = pos + 2 + nameLength;
            if (tag == TAG_I64 && named(data, pos + 2, nameLength, name)) {
                return getLong(data, value);
            }
            pos = value + switch (tag) {
                case TAG_BOOL, TAG_U8 -> 1;
                case TAG_U16 -> 2;
                case TAG_I32 -> 4;
                case TAG_I64 -> 8;
                case TAG_BYTES, TAG_SECTION -> 4 + getInt(data, value);
                case TAG_INTS -> 4 + 4 * getInt(data, value);
                default -> throw new IllegalStateException("validated snapshot has tag " + tag);
            };
        }
        throw new IllegalStateException("validated snapshot has no console." + name);
    }

    private static boolean named(byte[] data, int at, int length, String name) {
        if (length != name.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (data[at + i] != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the body's {@link SnapshotFormat#REGION_ENTRY} entry starts (the last top-level
     * entry), or -1 when there is none (an NTSC console). Walks the top-level entries, each a
     * section whose length it skips; anything else ends the walk.
     */
    static int regionEntry(byte[] data, int pos, int end) {
        final byte[] name = REGION_ENTRY.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        while (pos + 2 <= end) {
            final int tag = data[pos] & 0xFF;
            final int nameLength = data[pos + 1] & 0xFF;
            final int value = pos + 2 + nameLength;
            if (tag == TAG_SECTION && value + 4 <= end) {
                pos = value + 4 + getInt(data, value);
                continue;
            }
            final boolean region = tag == TAG_U8 && value + 1 == end && nameLength == name.length
                    && Arrays.equals(data, pos + 2, value, name, 0, name.length)
                    && (data[value] & 0xFF) < REGIONS.length;
            return region ? pos : -1;
        }
        return -1;
    }

    /**
     * Checks length, magic, version, declared body length and checksum, in that order, and
     * returns the body's end. Shared by {@link #load} and {@link SnapshotFile#parse}.
     */
    static int verifyEnvelope(byte[] data, int length, String source, CRC32 crc) throws SnapshotException {
        if (length == 0) {
            throw new SnapshotException(source + ": empty file (not a snapshot)");
        }
        if (length < MAGIC.length || !Arrays.equals(data, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            if (length < MAGIC.length && Arrays.equals(data, 0, length, MAGIC, 0, length)) {
                throw new SnapshotException(source + ": truncated (" + length + " bytes, shorter than the header)");
            }
            throw new SnapshotException(source + ": bad magic (not a lockstep snapshot)");
        }
        if (length < HEADER + TRAILER) {
            throw new SnapshotException(source + ": truncated (" + length + " bytes, need at least "
                    + (HEADER + TRAILER) + ")");
        }
        int version = getInt(data, OFF_VERSION);
        if (version != VERSION) {
            throw new SnapshotException(source + ": unsupported format version " + (version & 0xFFFFFFFFL)
                    + " (this build reads version " + VERSION + ")");
        }
        long body = getInt(data, OFF_LENGTH) & 0xFFFFFFFFL;
        long expected = HEADER + body + TRAILER;
        if (expected > length) {
            throw new SnapshotException(source + ": truncated (" + length + " bytes, header says " + expected + ")");
        }
        if (expected < length) {
            throw new SnapshotException(source + ": " + (length - expected) + " unexpected bytes after the checksum");
        }
        int end = (int) (HEADER + body);
        crc.reset();
        crc.update(data, 0, end);
        int stored = getInt(data, end);
        if ((int) crc.getValue() != stored) {
            throw new SnapshotException(source + ": checksum mismatch (CRC-32 " + String.format("%08x", stored)
                    + " stored, " + String.format("%08x", (int) crc.getValue()) + " computed): the file is corrupted");
        }
        return end;
    }
}
