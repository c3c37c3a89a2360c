package lockstep.nes.state;

import java.util.HexFormat;

/**
 * The kinds of described entry: the visitor method that produced it. Snapshots write these
 * numbers as each entry's tag byte, so they never change meaning.
 */
public final class EntryTag {
    public static final int BOOL = 1;
    public static final int U8 = 2;
    public static final int U16 = 3;
    public static final int I32 = 4;
    public static final int I64 = 5;
    public static final int BYTES = 6;
    public static final int INTS = 7;
    public static final int SECTION = 8;

    private EntryTag() {
    }

    /** The visitor method's name for a tag ("u8", "bytes"...), or "tag N" for an unknown one. */
    public static String name(int tag) {
        return switch (tag) {
            case BOOL -> "bool";
            case U8 -> "u8";
            case U16 -> "u16";
            case I32 -> "i32";
            case I64 -> "i64";
            case BYTES -> "bytes";
            case INTS -> "ints";
            case SECTION -> "section";
            default -> "tag " + tag;
        };
    }

    /** Lower-case hexadecimal, two digits a byte, as memories are shown in JSON and diffs. */
    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
