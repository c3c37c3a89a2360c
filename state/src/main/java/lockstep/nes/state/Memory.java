package lockstep.nes.state;

import java.util.Arrays;

/**
 * A byte memory (RAM, VRAM, OAM, palette, PRG-RAM, CHR-RAM, mapper RAM) that keeps an
 * incremental 64-bit hash of its contents, updated on every write. The hash is
 * {@code sum over i of w(region, i) * data[i]} (mod 2^64) with odd weights {@code w} drawn from
 * splitmix64 of (region, index), so a write updates it with one multiply,
 * {@code h += w(i) * (new - old)}, any single-byte change always changes it, and the per-cycle
 * digest reads {@link #hash()} in O(1) instead of rehashing the array.
 *
 * <p>Every mutable memory of a component must be a {@code Memory}, and all writes must go
 * through {@link #write} (or be followed by {@link #rehash} after a bulk change).
 */
public final class Memory {
    // Digest regions of the console's memories (a mapper's extra RAMs use MAPPER + n).
    public static final int RAM = 1;
    public static final int CIRAM = 2;
    public static final int PRG_RAM = 3;
    public static final int CHR_RAM = 4;
    public static final int OAM = 5;
    public static final int SECONDARY_OAM = 6;
    public static final int PALETTE = 7;
    public static final int SPRITE_LINE = 8;
    public static final int MAPPER = 16;

    private final String name;
    private final long region;
    private final byte[] data;
    /** The hash weight of each index (odd). */
    private final long[] weights;
    /** The sum of the weights: the hash of a memory filled with one value is that value times it. */
    private final long weightSum;
    private long hash;

    /**
     * @param name   the memory's name in state descriptions ("ram", "vram", "oam", ...)
     * @param region a constant identifying the memory in the digest (distinct per memory)
     * @param size   bytes
     */
    public Memory(String name, int region, int size) {
        this.name = name;
        this.region = (long) region << 40;
        this.data = new byte[size];
        this.weights = new long[size];
        long sum = 0;
        for (int i = 0; i < size; i++) {
            weights[i] = mix(this.region, i, 0) | 1;
            sum += weights[i];
        }
        this.weightSum = sum;
        rehash();
    }

    public String name() {
        return name;
    }

    public int size() {
        return data.length;
    }

    public int read(int index) {
        return data[index] & 0xFF;
    }

    public void write(int index, int value) {
        int old = data[index] & 0xFF;
        value &= 0xFF;
        if (old != value) {
            hash += weights[index] * (value - old);
            data[index] = (byte) value;
        }
    }

    /** Fills with one value (power-on patterns). */
    public void fill(int value) {
        Arrays.fill(data, (byte) value);
        hash = weightSum * (value & 0xFF); // the sum of w(i) * value, wrapping
    }

    /** The live array, for bulk reads (snapshots, dumps). Call {@link #rehash} after changing it. */
    public byte[] array() {
        return data;
    }

    /**
     * Replaces the contents with {@code src[offset, offset + size())} (a snapshot load): the
     * bytes that differ are written one by one with incremental hash updates, or, when many
     * differ, copied in bulk and rehashed.
     */
    public void load(byte[] src, int offset) {
        final byte[] d = data;
        final int n = d.length;
        final int limit = n >> 3;
        long h = hash;
        int changed = 0;
        int i = 0;
        while (i < n) {
            int m = Arrays.mismatch(d, i, n, src, offset + i, offset + n);
            if (m < 0) {
                break;
            }
            i += m;
            int nv = src[offset + i] & 0xFF;
            h += weights[i] * (nv - (d[i] & 0xFF));
            d[i] = (byte) nv;
            i++;
            if (++changed > limit) {
                System.arraycopy(src, offset + i, d, i, n - i);
                rehash();
                return;
            }
        }
        hash = h;
    }

    /** Recomputes the hash from scratch. */
    public void rehash() {
        hash = recomputeHash();
    }

    /** The incremental hash of the contents. */
    public long hash() {
        return hash;
    }

    /**
     * The hash recomputed from the bytes, without storing it (the digest's from-scratch check:
     * equals {@link #hash()} whenever every write went through {@link #write}).
     */
    public long recomputeHash() {
        final byte[] d = data;
        final long[] w = weights;
        long h = 0;
        for (int i = 0; i < d.length; i++) {
            h += w[i] * (d[i] & 0xFF);
        }
        return h;
    }

    /**
     * Visits the contents as one named byte array (through {@link StateVisitor#memory}, so a
     * hasher can use the incremental hash) and keeps the hash in step on load.
     */
    public void state(StateVisitor s) {
        s.memory(this);
    }

    static long mix(long region, int index, int value) {
        long z = region | ((long) index << 8) | value;
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
