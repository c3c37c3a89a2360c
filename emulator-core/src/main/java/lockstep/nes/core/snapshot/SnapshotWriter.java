package lockstep.nes.core.snapshot;

import static lockstep.nes.core.snapshot.SnapshotFormat.*;

import java.util.Arrays;

import lockstep.nes.state.StateVisitor;

/**
 * Writes the visited state as snapshot entries ({@link SnapshotFormat}) into a growable buffer
 * that is reused between snapshots. Names must be ASCII (at most 255 characters).
 */
public final class SnapshotWriter implements StateVisitor {
    /** Every value visited is returned as given. */
    @Override
    public boolean onlyObserves() {
        return true;
    }

    private static final int MAX_DEPTH = 16;

    private byte[] buf;
    private int pos;
    /** Where each open section's length field is. */
    private final int[] open = new int[MAX_DEPTH];
    private int depth;

    public SnapshotWriter(int initialCapacity) {
        buf = new byte[Math.max(64, initialCapacity)];
    }

    /** Starts again at {@code position} (keeps the buffer). */
    public void reset(int position) {
        ensure(position);
        pos = position;
        depth = 0;
    }

    public int position() {
        return pos;
    }

    /** The buffer (valid up to {@link #position()}). */
    public byte[] buffer() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int extra) {
        if (pos + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
        }
    }

    private void head(int tag, String name, int valueBytes) {
        int n = name.length();
        ensure(2 + n + valueBytes);
        byte[] b = buf;
        int p = pos;
        b[p++] = (byte) tag;
        b[p++] = (byte) n;
        for (int i = 0; i < n; i++) {
            b[p++] = (byte) name.charAt(i);
        }
        pos = p;
    }

    public void putRawInt(int v) {
        ensure(4);
        putInt(buf, pos, v);
        pos += 4;
    }

    public void putRawLong(long v) {
        ensure(8);
        putLong(buf, pos, v);
        pos += 8;
    }

    public void putRaw(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, buf, pos, len);
        pos += len;
    }

    @Override
    public void beginSection(String name) {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("sections nested deeper than " + MAX_DEPTH);
        }
        head(TAG_SECTION, name, 4);
        open[depth++] = pos;
        pos += 4;
    }

    @Override
    public void endSection() {
        int at = open[--depth];
        putInt(buf, at, pos - at - 4);
    }

    @Override
    public boolean bool(String name, boolean value) {
        head(TAG_BOOL, name, 1);
        buf[pos++] = (byte) (value ? 1 : 0);
        return value;
    }

    @Override
    public int u8(String name, int value) {
        head(TAG_U8, name, 1);
        buf[pos++] = (byte) value;
        return value;
    }

    @Override
    public int u16(String name, int value) {
        head(TAG_U16, name, 2);
        buf[pos++] = (byte) (value >>> 8);
        buf[pos++] = (byte) value;
        return value;
    }

    @Override
    public int i32(String name, int value) {
        head(TAG_I32, name, 4);
        putInt(buf, pos, value);
        pos += 4;
        return value;
    }

    @Override
    public long i64(String name, long value) {
        head(TAG_I64, name, 8);
        putLong(buf, pos, value);
        pos += 8;
        return value;
    }

    @Override
    public void bytes(String name, byte[] array) {
        head(TAG_BYTES, name, 4 + array.length);
        putInt(buf, pos, array.length);
        pos += 4;
        System.arraycopy(array, 0, buf, pos, array.length);
        pos += array.length;
    }

    @Override
    public void ints(String name, int[] array) {
        head(TAG_INTS, name, 4 + 4 * array.length);
        putInt(buf, pos, array.length);
        pos += 4;
        for (int v : array) {
            putInt(buf, pos, v);
            pos += 4;
        }
    }
}
