package lockstep.nes.core.state;

import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The 64-bit digest of a whole machine, cheap enough to take after every CPU cycle.
 *
 * <p>It is defined over the described state: the i-th described value v (in visiting order,
 * array elements one by one, bools as 0/1) contributes {@code v * k_i} to a 64-bit sum, where
 * the k_i are distinct odd constants, so changing any single value always changes the sum.
 * A {@link Memory} contributes its incremental hash ({@link Memory#hash()}, O(1)) instead of its
 * bytes. The names and kinds of all entries, in order, form a layout seed, and the result is
 * {@code fmix64(sum ^ seed)}. No Java object layout is involved: two engines whose
 * descriptions agree have equal digests.
 *
 * <p>{@link #recompute()} takes the same digest with every memory hash recomputed from its
 * bytes (the check that the incremental hashes are right).
 */
public final class CycleDigest implements StateVisitor {
    private static final long STEP = 0x9E3779B97F4A7C16L; // even: k stays odd
    private static final long K0 = 0xD6E8FEB86659FD93L;   // odd

    private final Stateful root;
    private final long layoutSeed;
    private long sum;
    private long k;
    private boolean fromScratch;

    public CycleDigest(Stateful root) {
        this.root = root;
        this.layoutSeed = layoutSeed(root);
    }

    /** The digest of the current state, using the memories' incremental hashes. */
    public long digest() {
        fromScratch = false;
        sum = 0;
        k = K0;
        root.state(this);
        return fmix64(sum ^ layoutSeed);
    }

    /** The digest with every memory hash recomputed from its bytes (slow; for checks). */
    public long recompute() {
        fromScratch = true;
        sum = 0;
        k = K0;
        root.state(this);
        fromScratch = false;
        return fmix64(sum ^ layoutSeed);
    }

    public long layoutSeed() {
        return layoutSeed;
    }

    /** Hash of the ordered (tag, name) sequence of the description. */
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

    private void add(long v) {
        long kk = k + STEP;
        k = kk;
        sum += v * kk;
    }

    @Override
    public void beginSection(String name) {
    }

    @Override
    public void endSection() {
    }

    @Override
    public boolean bool(String name, boolean value) {
        add(value ? 1 : 0);
        return value;
    }

    @Override
    public int u8(String name, int value) {
        add(value & 0xFF);
        return value;
    }

    @Override
    public int u16(String name, int value) {
        add(value & 0xFFFF);
        return value;
    }

    @Override
    public int i32(String name, int value) {
        add(value);
        return value;
    }

    @Override
    public long i64(String name, long value) {
        add(value);
        return value;
    }

    @Override
    public void bytes(String name, byte[] array) {
        for (byte b : array) {
            add(b & 0xFF);
        }
    }

    @Override
    public void ints(String name, int[] array) {
        for (int v : array) {
            add(v);
        }
    }

    @Override
    public void memory(Memory m) {
        add(fromScratch ? m.recomputeHash() : m.hash());
    }
}
