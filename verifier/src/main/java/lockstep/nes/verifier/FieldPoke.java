package lockstep.nes.verifier;

import java.util.ArrayDeque;
import java.util.Deque;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * Changes one described value of a component tree: a scalar {@code section.field} set to a
 * value, or one bit of one element of an array/memory flipped. Everything else passes through
 * unchanged. It reports itself as a reader so components rebuild caches and memories rehash,
 * exactly as after loading a snapshot.
 */
final class FieldPoke implements StateVisitor {
    private final String target;
    private final long value;
    private final int index;
    private final int bitMask;
    private final Deque<String> sections = new ArrayDeque<>();
    private boolean hit;
    private String before;

    private FieldPoke(String target, long value, int index, int bitMask) {
        this.target = target;
        this.value = value;
        this.index = index;
        this.bitMask = bitMask;
    }

    /** Sets scalar {@code path} to {@code value}; returns the old value as text. */
    static String set(Stateful root, String path, long value) {
        FieldPoke p = new FieldPoke(path, value, -1, 0);
        root.state(p);
        if (!p.hit) {
            throw new IllegalArgumentException("no scalar field '" + path + "' in the state description");
        }
        return p.before;
    }

    /** Flips bit {@code bit} of element {@code index} of array {@code path}; returns the old element. */
    static String flipBit(Stateful root, String path, int index, int bit) {
        FieldPoke p = new FieldPoke(path, 0, index, 1 << bit);
        root.state(p);
        if (!p.hit) {
            throw new IllegalArgumentException("no array '" + path + "' with element " + index);
        }
        return p.before;
    }

    private boolean at(String name) {
        if (hit) {
            return false;
        }
        String prefix = String.join(".", sections);
        return target.equals(prefix.isEmpty() ? name : prefix + "." + name);
    }

    private long scalar(String name, long v, long mask) {
        if (index < 0 && at(name)) {
            hit = true;
            before = Long.toString(v);
            return value & mask;
        }
        return v;
    }

    @Override
    public boolean isReader() {
        return true;
    }

    @Override
    public void beginSection(String name) {
        sections.addLast(name);
    }

    @Override
    public void endSection() {
        sections.removeLast();
    }

    @Override
    public boolean bool(String name, boolean v) {
        return scalar(name, v ? 1 : 0, 1) != 0;
    }

    @Override
    public int u8(String name, int v) {
        return (int) scalar(name, v, 0xFF);
    }

    @Override
    public int u16(String name, int v) {
        return (int) scalar(name, v, 0xFFFF);
    }

    @Override
    public int i32(String name, int v) {
        return (int) scalar(name, v, 0xFFFFFFFFL);
    }

    @Override
    public long i64(String name, long v) {
        return scalar(name, v, -1L);
    }

    @Override
    public void bytes(String name, byte[] array) {
        if (index >= 0 && index < array.length && at(name)) {
            hit = true;
            before = Integer.toString(array[index] & 0xFF);
            array[index] ^= (byte) bitMask;
        }
    }

    @Override
    public void ints(String name, int[] array) {
        if (index >= 0 && index < array.length && at(name)) {
            hit = true;
            before = Integer.toString(array[index]);
            array[index] ^= bitMask;
        }
    }

    @Override
    public void memory(Memory m) {
        bytes(m.name(), m.array());
        m.rehash();
    }
}
