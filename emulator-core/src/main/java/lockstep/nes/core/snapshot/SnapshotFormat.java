package lockstep.nes.core.snapshot;

import lockstep.nes.state.EntryTag;

/**
 * The canonical snapshot format, version 1. All integers are big-endian.
 *
 * <pre>
 * magic        8 bytes  "LSNESSNP"
 * version      u32      {@link #VERSION}
 * rom          32 bytes SHA-256 of the cartridge's PRG then CHR data ({@link RomId})
 * cycle        i64      CPU cycles (Console.cycles())
 * frame        i64      PPU frame counter (Console.frame())
 * length       u32      byte length of the body
 * body         entries, each one of the top-level sections of Console.state (the section
 *              "cheats" last among them, present only while a cheat is in effect), then, for a
 *              console that is not an NTSC one, the u8 entry "region" (Region's ordinal:
 *              1 PAL, 2 Dendy), so NTSC snapshots are as they were before other regions
 * crc32        u32      CRC-32 of every byte before it
 * </pre>
 *
 * An entry is {@code tag u8, nameLength u8, name (ASCII), value}; the value by tag:
 * bool u8 (0 or 1), u8 u8, u16 u16, i32 i32, i64 i64, bytes {@code u32 count, count bytes},
 * ints {@code u32 count, count i32}, section {@code u32 length, length bytes of entries}.
 * Entries come in the order of the components' {@code state} methods, so the same state always
 * gives the same bytes, and a snapshot describes itself (dump and diff need no engine).
 */
public final class SnapshotFormat {
    public static final byte[] MAGIC = {'L', 'S', 'N', 'E', 'S', 'S', 'N', 'P'};
    /** Bump on any change to the encoding above (the golden-file test enforces it). */
    public static final int VERSION = 1;

    public static final int TAG_BOOL = EntryTag.BOOL;
    public static final int TAG_U8 = EntryTag.U8;
    public static final int TAG_U16 = EntryTag.U16;
    public static final int TAG_I32 = EntryTag.I32;
    public static final int TAG_I64 = EntryTag.I64;
    public static final int TAG_BYTES = EntryTag.BYTES;
    public static final int TAG_INTS = EntryTag.INTS;
    public static final int TAG_SECTION = EntryTag.SECTION;

    /** The name of the body's last entry on a PAL or Dendy console: its {@code Region} ordinal. */
    public static final String REGION_ENTRY = "region";

    static final int OFF_VERSION = 8;
    static final int OFF_ROM = 12;
    static final int OFF_CYCLE = 44;
    static final int OFF_FRAME = 52;
    static final int OFF_LENGTH = 60;
    /** Header size: where the body starts. */
    public static final int HEADER = 64;
    public static final int TRAILER = 4;

    private SnapshotFormat() {
    }

    public static String tagName(int tag) {
        return EntryTag.name(tag);
    }

    static int getInt(byte[] b, int i) {
        return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }

    static long getLong(byte[] b, int i) {
        return ((long) getInt(b, i) << 32) | (getInt(b, i + 4) & 0xFFFFFFFFL);
    }

    static void putInt(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }

    static void putLong(byte[] b, int i, long v) {
        putInt(b, i, (int) (v >>> 32));
        putInt(b, i + 4, (int) v);
    }
}
