package lockstep.nes.state;

/**
 * The values one described field may hold: {@code min..max}, either declared by its component
 * (a scanline is -1..261) or implied by its kind (a u8 is 0..255, a bool 0..1). For an int array
 * the range is each element's. Readers of snapshots and pokes of {@code --inject} refuse a value
 * outside it with {@link #refusal}.
 */
public record FieldRange(String path, int tag, long min, long max, boolean declared) {

    /** The range a field's kind implies when its component declares none. */
    public static FieldRange implied(String path, int tag) {
        return switch (tag) {
            case EntryTag.BOOL -> new FieldRange(path, tag, 0, 1, false);
            case EntryTag.U8 -> new FieldRange(path, tag, 0, 0xFF, false);
            case EntryTag.U16 -> new FieldRange(path, tag, 0, 0xFFFF, false);
            case EntryTag.I32, EntryTag.INTS -> new FieldRange(path, tag, Integer.MIN_VALUE, Integer.MAX_VALUE, false);
            case EntryTag.I64 -> new FieldRange(path, tag, Long.MIN_VALUE, Long.MAX_VALUE, false);
            default -> throw new IllegalArgumentException(EntryTag.name(tag) + " '" + path + "' has no range");
        };
    }

    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** The one-line refusal of {@code value} for {@code path}: "ppu.scanline = -500 is out of range -1..261". */
    public static String refusal(String path, long value, long min, long max) {
        return path + " = " + value + " is out of range " + min + ".." + max;
    }
}
