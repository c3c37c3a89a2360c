package lockstep.nes.core.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The 64-bit digest of a whole machine, cheap enough to take after every CPU cycle.
 *
 * <p>It is defined over the described state, in visiting order: bools (1 bit), u8 (8 bits),
 * u16 (16 bits) and i32 (32 bits) values are packed, high to low, into 64-bit words (a value
 * that does not fit in the current word starts the next one); byte arrays are packed eight
 * bytes per word (little-endian, a short tail packed like u8 values); i64 values, int array
 * elements and memories are words of their own, a {@link Memory} contributing its incremental
 * hash ({@link Memory#hash()}, O(1)) instead of its bytes. The j-th word w contributes
 * {@code w * k_j} to a 64-bit sum, where the k_j are distinct odd constants, so changing any
 * single value always changes the sum. The names and kinds of all entries, in order, form a
 * layout seed, and the result is {@code fmix64(sum ^ seed)}. No Java object layout is involved:
 * two engines whose descriptions agree have equal digests.
 *
 * <p>{@link #recompute()} takes the same digest with every memory hash recomputed from its
 * bytes (the check that the incremental hashes are right).
 */
public final class CycleDigest implements StateVisitor {
    private static final long STEP = 0x9E3779B97F4A7C16L; // even: k stays odd
    private static final long K0 = 0xD6E8FEB86659FD93L;   // odd
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Stateful root;
    private final long layoutSeed;
    private long sum;
    private long k;
    /** The word being packed and how many bits it holds. */
    private long word;
    private int bits;
    private boolean fromScratch;

    public CycleDigest(Stateful root) {
        this.root = root;
        this.layoutSeed = layoutSeed(root);
    }

    /** The digest of the current state, using the memories' incremental hashes. */
    public long digest() {
        fromScratch = false;
        return run();
    }

    /** The digest with every memory hash recomputed from its bytes (slow; for checks). */
    public long recompute() {
        fromScratch = true;
        long d = run();
        fromScratch = false;
        return d;
    }

    private long run() {
        sum = 0;
        k = K0;
        word = 0;
        bits = 0;
        root.state(this);
        flush();
        return fmix64(sum ^ layoutSeed);
    }

    public long layoutSeed() {
        return layoutSeed;
    }

    /** Hash of the ordered (tag, name, length) sequence of the description. */
    static long layoutSeed(Stateful root) {
        Describer d = new Describer();
        root.state(d);
        long h = 0x243F6A8885A308D3L;
        for (StateEntry e : d.entries()) {
            h = fmix64(h ^ e.tag());
            String p = e.path();
            for (int i = 0; i < p.length(); i++) {
                h = (h ^ p.charAt(i)) * 0x100000001B3L;
            }
            h = fmix64(h ^ e.length());
        }
        return h;
    }

    static long fmix64(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    /** A whole word. */
    private void add(long w) {
        long kk = k + STEP;
        k = kk;
        sum += w * kk;
    }

    /** Packs a value of {@code width} bits (already masked). */
    private void pack(long v, int width) {
        int b = bits;
        if (b + width > 64) {
            add(word);
            word = v;
            bits = width;
        } else {
            word = (word << width) | v;
            bits = b + width;
        }
    }

    private void flush() {
        if (bits > 0) {
            add(word);
            word = 0;
            bits = 0;
        }
    }

    @Override
    public void beginSection(String name) {
    }

    @Override
    public void endSection() {
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
        add(fromScratch ? m.recomputeHash() : m.hash());
    }
}
