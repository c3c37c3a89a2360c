package lockstep.nes.core.digest;

import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * A writer that flips one bit of the {@code target}-th described scalar, array element or memory
 * (a byte picked by {@code bit}) in place and names what it changed; with target -1 it changes
 * nothing and counts the places ({@link #count}). Used to prove that changing any single
 * described value changes a digest.
 */
final class BitFlip implements StateVisitor {
    private final int target;
    private final int bit;
    private int index;
    String changed;

    BitFlip(int target, int bit) {
        this.target = target;
        this.bit = bit;
    }

    private boolean hit(String name) {
        if (index++ == target) {
            changed = name;
            return true;
        }
        return false;
    }

    @Override public void beginSection(String name) { }
    @Override public void endSection() { }
    @Override public boolean bool(String name, boolean v) { return hit(name) != v; }
    @Override public int u8(String name, int v) { return hit(name) ? v ^ (1 << (bit % 8)) : v; }
    @Override public int u16(String name, int v) { return hit(name) ? v ^ (1 << (bit % 16)) : v; }
    @Override public int i32(String name, int v) { return hit(name) ? v ^ (1 << bit) : v; }
    @Override public long i64(String name, long v) { return hit(name) ? v ^ (1L << (bit * 2)) : v; }

    @Override
    public void bytes(String name, byte[] a) {
        for (int i = 0; i < a.length; i++) {
            if (hit(name + "[" + i + "]")) {
                a[i] ^= (byte) (1 << (bit % 8));
            }
        }
    }

    @Override
    public void ints(String name, int[] a) {
        for (int i = 0; i < a.length; i++) {
            if (hit(name + "[" + i + "]")) {
                a[i] ^= 1 << bit;
            }
        }
    }

    /** Memories: one index per memory; {@code bit} picks the byte. */
    @Override
    public void memory(Memory m) {
        if (hit(m.name())) {
            int i = (int) ((bit * 2654435761L) % m.size());
            m.write(i, m.read(i) ^ (1 << (bit % 8)));
            changed = m.name() + "[" + i + "]";
        }
    }

    int count() {
        return index;
    }
}
