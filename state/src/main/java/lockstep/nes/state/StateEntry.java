package lockstep.nes.state;

import java.util.Arrays;

/**
 * One described value: {@code path} is {@code section.field} (sections nest with dots), {@code tag}
 * a {@link SnapshotFormat} tag. Scalars are in {@code value} (bool as 0/1); arrays in
 * {@code bytes} or {@code ints} (copies).
 */
public record StateEntry(String path, int tag, long value, byte[] bytes, int[] ints) {

    public boolean isArray() {
        return bytes != null || ints != null;
    }

    /** Array length (0 for scalars). */
    public int length() {
        return bytes != null ? bytes.length : ints != null ? ints.length : 0;
    }

    /** Element {@code i} of an array, unsigned for bytes. */
    public long element(int i) {
        return bytes != null ? bytes[i] & 0xFF : ints[i];
    }

    /** Same path, tag and value. */
    public boolean sameValue(StateEntry o) {
        return tag == o.tag && value == o.value && Arrays.equals(bytes, o.bytes) && Arrays.equals(ints, o.ints);
    }

    /**
     * The scalar as text: bool as true/false; registers (u8, u16) in hexadecimal like memories
     * ("0x2a", "0xc000"); counters (i32, i64) in decimal.
     */
    public String scalarText() {
        return switch (tag) {
            case EntryTag.BOOL -> Boolean.toString(value != 0);
            case EntryTag.U8 -> String.format("0x%02x", value);
            case EntryTag.U16 -> String.format("0x%04x", value);
            default -> Long.toString(value);
        };
    }
}
