package lockstep.nes.core.snapshot;

import static lockstep.nes.core.snapshot.SnapshotFormat.*;

import lockstep.nes.state.FieldRange;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * Reads snapshot entries back into the visited components, checking that every entry has the
 * tag, name and size the component's description expects.
 *
 * <p>A value outside the range its component declares (a scanline of -500, a page offset past
 * the ROM) is refused like a layout mismatch, naming the field and its value.
 *
 * <p>In check mode ({@code apply == false}) nothing is stored: every method returns the
 * component's current value, so a whole snapshot can be validated against the live engine's own
 * description before any of it is loaded. A mismatch throws {@link Mismatch} naming the field.
 */
public final class SnapshotReader implements StateVisitor {
    /** A snapshot entry that does not fit the description; the message is one line. */
    public static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    private static final int MAX_DEPTH = 16;

    private byte[] buf;
    private int pos;
    private int end;
    private boolean apply;
    private final int[] sectionEnd = new int[MAX_DEPTH];
    private final String[] sectionName = new String[MAX_DEPTH];
    private int depth;

    /** Prepares to read entries in {@code buf[from, to)}; stores values only if {@code apply}. */
    public void reset(byte[] buf, int from, int to, boolean apply) {
        this.buf = buf;
        this.pos = from;
        this.end = to;
        this.apply = apply;
        this.depth = 0;
    }

    /** Where reading stopped. */
    public int position() {
        return pos;
    }

    /** Fails unless every entry was consumed. */
    public void finish() {
        if (pos != end) {
            throw new Mismatch("snapshot has " + (end - pos) + " bytes of entries this engine does not describe"
                    + describeNext());
        }
    }

    @Override
    public boolean isReader() {
        return apply;
    }

    private String where(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            b.append(sectionName[i]).append('.');
        }
        return b.append(name).toString();
    }

    private String describeNext() {
        int limit = depth > 0 ? sectionEnd[depth - 1] : end;
        if (pos + 2 > limit) {
            return "";
        }
        int n = buf[pos + 1] & 0xFF;
        if (pos + 2 + n > limit) {
            return "";
        }
        StringBuilder b = new StringBuilder(" (next: ").append(tagName(buf[pos] & 0xFF)).append(" '");
        for (int i = 0; i < n; i++) {
            b.append((char) (buf[pos + 2 + i] & 0xFF));
        }
        return b.append("')").toString();
    }

    /** Checks the next entry's tag and name and that {@code valueBytes} follow it in its section. */
    private void expect(int tag, String name, int valueBytes) {
        int limit = depth > 0 ? sectionEnd[depth - 1] : end;
        byte[] b = buf;
        int p = pos;
        int n = name.length();
        boolean ok = p + 2 + n <= limit && (b[p] & 0xFF) == tag && (b[p + 1] & 0xFF) == n;
        if (ok) {
            for (int i = 0; i < n; i++) {
                if (b[p + 2 + i] != (byte) name.charAt(i)) {
                    ok = false;
                    break;
                }
            }
        }
        if (!ok) {
            throw new Mismatch("layout differs from this engine: expected " + tagName(tag) + " '" + where(name)
                    + "'" + (p >= limit ? " but the section ends" : describeNext()));
        }
        pos = p + 2 + n;
        if (pos + valueBytes > limit) {
            throw new Mismatch("entry '" + where(name) + "' runs past the end of its section");
        }
    }

    @Override
    public void beginSection(String name) {
        if (depth == MAX_DEPTH) {
            throw new Mismatch("sections nested deeper than " + MAX_DEPTH);
        }
        expect(TAG_SECTION, name, 4);
        int len = getInt(buf, pos);
        pos += 4;
        int limit = depth > 0 ? sectionEnd[depth - 1] : end;
        if (len < 0 || pos + len > limit) {
            throw new Mismatch("section '" + where(name) + "' length " + len + " runs past its container");
        }
        sectionName[depth] = name;
        sectionEnd[depth++] = pos + len;
    }

    @Override
    public void endSection() {
        int e = sectionEnd[depth - 1];
        if (pos != e) {
            throw new Mismatch("section '" + where("") + "' has " + (e - pos)
                    + " bytes this engine does not describe" + describeNext());
        }
        depth--;
    }

    @Override
    public boolean bool(String name, boolean value) {
        expect(TAG_BOOL, name, 1);
        int v = buf[pos++];
        if (v != 0 && v != 1) {
            throw new Mismatch("bool '" + where(name) + "' has value " + v);
        }
        return apply ? v == 1 : value;
    }

    @Override
    public int u8(String name, int value) {
        expect(TAG_U8, name, 1);
        int v = buf[pos++] & 0xFF;
        return apply ? v : value;
    }

    @Override
    public int u16(String name, int value) {
        int v = readU16(name);
        return apply ? v : value;
    }

    @Override
    public int i32(String name, int value) {
        int v = readI32(name);
        return apply ? v : value;
    }

    @Override
    public long i64(String name, long value) {
        long v = readI64(name);
        return apply ? v : value;
    }

    private int readU16(String name) {
        expect(TAG_U16, name, 2);
        int v = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
        pos += 2;
        return v;
    }

    private int readI32(String name) {
        expect(TAG_I32, name, 4);
        int v = getInt(buf, pos);
        pos += 4;
        return v;
    }

    private long readI64(String name) {
        expect(TAG_I64, name, 8);
        long v = getLong(buf, pos);
        pos += 8;
        return v;
    }

    @Override
    public int u8(String name, int value, int max) {
        expect(TAG_U8, name, 1);
        int v = buf[pos++] & 0xFF;
        inRange(name, v, 0, max);
        return apply ? v : value;
    }

    @Override
    public int u16(String name, int value, int max) {
        int v = readU16(name);
        inRange(name, v, 0, max);
        return apply ? v : value;
    }

    @Override
    public int i32(String name, int value, int min, int max) {
        int v = readI32(name);
        inRange(name, v, min, max);
        return apply ? v : value;
    }

    @Override
    public long i64(String name, long value, long min, long max) {
        long v = readI64(name);
        inRange(name, v, min, max);
        return apply ? v : value;
    }

    @Override
    public void ints(String name, int[] array, int min, int max) {
        expect(TAG_INTS, name, 4);
        int n = count(name, array.length, 4);
        for (int i = 0; i < n; i++) {
            int v = getInt(buf, pos + 4 * i);
            if (v < min || v > max) {
                throw new Mismatch(FieldRange.refusal(where(name) + "[" + i + "]", v, min, max));
            }
        }
        if (apply) {
            for (int i = 0; i < n; i++) {
                array[i] = getInt(buf, pos + 4 * i);
            }
        }
        pos += 4 * n;
    }

    private void inRange(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new Mismatch(FieldRange.refusal(where(name), v, min, max));
        }
    }

    private int count(String name, int expected, int elementBytes) {
        int n = getInt(buf, pos);
        if (n != expected) {
            throw new Mismatch("array '" + where(name) + "' has " + n + " elements, this engine has " + expected);
        }
        pos += 4;
        int limit = depth > 0 ? sectionEnd[depth - 1] : end;
        if ((long) pos + (long) n * elementBytes > limit) {
            throw new Mismatch("array '" + where(name) + "' runs past the end of its section");
        }
        return n;
    }

    @Override
    public void bytes(String name, byte[] array) {
        expect(TAG_BYTES, name, 4);
        int n = count(name, array.length, 1);
        if (apply) {
            System.arraycopy(buf, pos, array, 0, n);
        }
        pos += n;
    }

    @Override
    public void memory(Memory m) {
        String name = m.name();
        expect(TAG_BYTES, name, 4);
        int n = count(name, m.size(), 1);
        if (apply) {
            m.load(buf, pos);
        }
        pos += n;
    }

    @Override
    public void ints(String name, int[] array) {
        expect(TAG_INTS, name, 4);
        int n = count(name, array.length, 4);
        if (apply) {
            for (int i = 0; i < n; i++) {
                array[i] = getInt(buf, pos + 4 * i);
            }
        }
        pos += 4 * n;
    }
}
