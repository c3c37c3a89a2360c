package lockstep.nes.verifier;

import java.util.ArrayDeque;
import java.util.Deque;
import lockstep.nes.state.EntryTag;
import lockstep.nes.state.FieldRange;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * Changes one described value of a component tree: a scalar {@code section.field} set to a
 * value, or one bit of one element of an array/memory flipped. Everything else passes through
 * unchanged. It reports itself as a reader so components rebuild caches and memories rehash,
 * exactly as after loading a snapshot. A value outside the field's range (declared by its
 * component, or implied by its kind: 0..255 for a u8) is refused, never truncated; {@link #check}
 * refuses it before a run starts, without changing anything.
 */
final class FieldPoke implements StateVisitor {
    private final String target;
    private final long value;
    private final int index;
    private final int bitMask;
    private final boolean apply;
    private final Deque<String> sections = new ArrayDeque<>();
    private boolean hit;
    private String before;

    private FieldPoke(String target, long value, int index, int bitMask, boolean apply) {
        this.target = target;
        this.value = value;
        this.index = index;
        this.bitMask = bitMask;
        this.apply = apply;
    }

    /**
     * Sets scalar {@code path} to {@code value}; returns the old value as text. Throws
     * IllegalArgumentException, changing nothing, for a field not described or a value out of
     * its range.
     */
    static String set(Stateful root, String path, long value) {
        check(root, path, value);
        FieldPoke p = new FieldPoke(path, value, -1, 0, true);
        root.state(p);
        return p.before;
    }

    /**
     * Throws IllegalArgumentException with a one-line reason unless {@code path} is a described
     * scalar of {@code root} whose range holds {@code value}; changes nothing.
     */
    static void check(Stateful root, String path, long value) {
        FieldPoke p = new FieldPoke(path, value, -1, 0, false);
        root.state(p);
        if (!p.hit) {
            throw new IllegalArgumentException("no scalar field '" + path + "' in the state description");
        }
    }

    /** Flips bit {@code bit} of element {@code index} of array {@code path}; returns the old element. */
    static String flipBit(Stateful root, String path, int index, int bit) {
        return element(root, path, index, 1 << bit, true);
    }

    /**
     * Throws IllegalArgumentException with a one-line reason unless {@code path} is a described
     * array of {@code root} with element {@code index}; changes nothing.
     */
    static void checkElement(Stateful root, String path, int index) {
        element(root, path, index, 0, false);
    }

    private static String element(Stateful root, String path, int index, int bitMask, boolean apply) {
        FieldPoke p = new FieldPoke(path, 0, index, bitMask, apply);
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

    /** The value to store for scalar {@code name} of range {@code min..max}, now {@code v}. */
    private long scalar(String name, long v, long min, long max) {
        if (index < 0 && at(name)) {
            hit = true;
            before = Long.toString(v);
            if (value < min || value > max) {
                throw new IllegalArgumentException(FieldRange.refusal(target, value, min, max));
            }
            return apply ? value : v;
        }
        return v;
    }

    private long scalar(String name, long v, int tag) {
        FieldRange r = FieldRange.implied(name, tag);
        return scalar(name, v, r.min(), r.max());
    }

    @Override
    public boolean isReader() {
        return apply;
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
        return scalar(name, v ? 1 : 0, EntryTag.BOOL) != 0;
    }

    @Override
    public int u8(String name, int v) {
        return (int) scalar(name, v, EntryTag.U8);
    }

    @Override
    public int u16(String name, int v) {
        return (int) scalar(name, v, EntryTag.U16);
    }

    @Override
    public int i32(String name, int v) {
        return (int) scalar(name, v, EntryTag.I32);
    }

    @Override
    public long i64(String name, long v) {
        return scalar(name, v, EntryTag.I64);
    }

    @Override
    public int u8(String name, int v, int max) {
        return (int) scalar(name, v, 0, max);
    }

    @Override
    public int u16(String name, int v, int max) {
        return (int) scalar(name, v, 0, max);
    }

    @Override
    public int i32(String name, int v, int min, int max) {
        return (int) scalar(name, v, min, max);
    }

    @Override
    public long i64(String name, long v, long min, long max) {
        return scalar(name, v, min, max);
    }

    @Override
    public void bytes(String name, byte[] array) {
        if (index >= 0 && index < array.length && at(name)) {
            hit = true;
            before = Integer.toString(array[index] & 0xFF);
            if (apply) {
                array[index] ^= (byte) bitMask;
            }
        }
    }

    @Override
    public void ints(String name, int[] array) {
        if (index >= 0 && index < array.length && at(name)) {
            hit = true;
            before = Integer.toString(array[index]);
            if (apply) {
                array[index] ^= bitMask;
            }
        }
    }

    @Override
    public void memory(Memory m) {
        bytes(m.name(), m.array());
        if (apply) {
            m.rehash();
        }
    }
}
