package lockstep.nes.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The reference definition of a component's term of the per-cycle digest, computed from its
 * description ({@code state(StateVisitor)}); the fast paths ({@link Digestible}) must equal it.
 *
 * <p>Within a section, its own values are packed in visiting order into 64-bit words: bools take
 * 1 bit, u8 8 bits, u16 16 bits, i32 32 bits, each shifted in at the low end ({@code word =
 * word << width | value}) until the next value would not fit, which then starts the next word.
 * An i64, each int-array element (sign-extended) and each {@link Memory} (its incremental hash,
 * O(1)) is a word of its own; a byte array is eight bytes per word (little-endian) with a short
 * tail packed like u8 values. The section's term is {@code sum over j of DigestKeys.w(j) * word_j}
 * plus, for each child section, {@code DigestKeys.section(childName) * childTerm}; a child does
 * not interrupt its parent's current word. Names other than section names only enter the layout
 * seed of {@code CycleDigest}. Everything is mod 2^64, and the term is linear in every packed
 * value with an odd coefficient times a power of two below its width, so any single change
 * changes it.
 *
 * <p>Not thread-safe; reusable.
 */
public final class DigestTerm implements StateVisitor {
    /** Every value visited is returned as given. */
    @Override
    public boolean onlyObserves() {
        return true;
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int MAX_DEPTH = 16;
    private static final int MAX_MEMORIES = 16;

    private final long[] sum = new long[MAX_DEPTH];
    private final int[] index = new int[MAX_DEPTH];
    private final long[] word = new long[MAX_DEPTH];
    private final int[] bits = new int[MAX_DEPTH];
    /** The section factor of each open section, and the product of the factors down to it. */
    private final long[] factor = new long[MAX_DEPTH];
    private final long[] scale = new long[MAX_DEPTH];
    private int depth;
    private boolean fromScratch;

    /** Recording mode: memories are listed with their coefficients instead of being summed. */
    private boolean record;
    private final Memory[] memories = new Memory[MAX_MEMORIES];
    private final long[] coefficients = new long[MAX_MEMORIES];
    private int memoryCount;

    /** The term of {@code component} using the memories' incremental hashes. */
    public static long of(Stateful component) {
        return new DigestTerm().term(component, false);
    }

    /**
     * The term of {@code component} (its own values and its child sections), with each memory's
     * hash recomputed from its bytes when {@code fromScratch}.
     */
    public long term(Stateful component, boolean fromScratch) {
        this.fromScratch = fromScratch;
        this.record = false;
        return run(component);
    }

    /**
     * The term of {@code component} without its memories, which are listed instead
     * ({@link #memoryCount}, {@link #memory}, {@link #coefficient}): the full term is this plus
     * the sum of {@code coefficient(i) * memory(i).hash()} (used to cache the term of state
     * that changes rarely while its memories change freely).
     */
    public long termWithoutMemories(Stateful component) {
        this.fromScratch = false;
        this.record = true;
        memoryCount = 0;
        long t = run(component);
        record = false;
        return t;
    }

    public int memoryCount() {
        return memoryCount;
    }

    public Memory memory(int i) {
        return memories[i];
    }

    public long coefficient(int i) {
        return coefficients[i];
    }

    private long run(Stateful component) {
        depth = 0;
        open(1);
        component.state(this);
        flush();
        if (depth != 0) {
            throw new IllegalStateException("unbalanced sections in " + component.getClass().getSimpleName());
        }
        return sum[0];
    }

    private void open(long f) {
        sum[depth] = 0;
        index[depth] = 0;
        word[depth] = 0;
        bits[depth] = 0;
        factor[depth] = f;
        scale[depth] = depth == 0 ? f : scale[depth - 1] * f;
    }

    /** A whole word. */
    private void add(long w) {
        final int d = depth;
        sum[d] += DigestKeys.w(index[d]++) * w;
    }

    /** Packs a value of {@code width} bits (already masked). */
    private void pack(long v, int width) {
        final int d = depth;
        int b = bits[d];
        if (b + width > 64) {
            add(word[d]);
            word[d] = v;
            bits[d] = width;
        } else {
            word[d] = (word[d] << width) | v;
            bits[d] = b + width;
        }
    }

    private void flush() {
        final int d = depth;
        if (bits[d] > 0) {
            add(word[d]);
            word[d] = 0;
            bits[d] = 0;
        }
    }

    @Override
    public void beginSection(String name) {
        if (++depth == MAX_DEPTH) {
            throw new IllegalStateException("sections nested too deep");
        }
        open(DigestKeys.section(name));
    }

    @Override
    public void endSection() {
        flush();
        final long t = sum[depth];
        final long f = factor[depth];
        depth--;
        sum[depth] += f * t;
    }

    @Override
    public boolean bool(String name, boolean value) {
        pack(value ? 1 : 0, 1);
        return value;
    }

    @Override
    public int u8(String name, int value) {
        pack(value & 0xFF, 8);
        return value;
    }

    @Override
    public int u16(String name, int value) {
        pack(value & 0xFFFF, 16);
        return value;
    }

    @Override
    public int i32(String name, int value) {
        pack(value & 0xFFFFFFFFL, 32);
        return value;
    }

    @Override
    public long i64(String name, long value) {
        flush();
        add(value);
        return value;
    }

    @Override
    public void bytes(String name, byte[] array) {
        flush();
        int n = array.length & ~7;
        for (int i = 0; i < n; i += 8) {
            add((long) LONGS.get(array, i));
        }
        for (int i = n; i < array.length; i++) {
            pack(array[i] & 0xFF, 8);
        }
        flush();
    }

    @Override
    public void ints(String name, int[] array) {
        flush();
        for (int v : array) {
            add(v);
        }
    }

    @Override
    public void memory(Memory m) {
        flush();
        if (record) {
            if (memoryCount == MAX_MEMORIES) {
                throw new IllegalStateException("too many memories in one cached term");
            }
            memories[memoryCount] = m;
            coefficients[memoryCount++] = scale[depth] * DigestKeys.w(index[depth]++);
        } else {
            add(fromScratch ? m.recomputeHash() : m.hash());
        }
    }
}
