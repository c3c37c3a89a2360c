package lockstep.nes.state;

import java.util.Arrays;

/**
 * A byte memory (RAM, VRAM, OAM, palette, PRG-RAM, CHR-RAM, mapper RAM) that keeps an
 * incremental 64-bit hash of its contents, updated on every write:
 * {@code h += mix(region, i, new) - mix(region, i, old)}. The per-cycle digest reads
 * {@link #hash()} in O(1) instead of rehashing the array.
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
    public static final int MAPPER = 16;

    private final String name;
    private final long region;
    private final byte[] data;
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
            hash += mix(region, index, value) - mix(region, index, old);
            data[index] = (byte) value;
        }
    }

    /** Fills with one value (power-on patterns). */
    public void fill(int value) {
        Arrays.fill(data, (byte) value);
        rehash();
    }

    /** The live array, for bulk reads (snapshots, dumps). Call {@link #rehash} after changing it. */
    public byte[] array() {
        return data;
    }

    /** Recomputes the hash from scratch. */
    public void rehash() {
        long h = 0;
        for (int i = 0; i < data.length; i++) {
            h += mix(region, i, data[i] & 0xFF);
        }
        hash = h;
    }

    /** The incremental hash of the contents. */
    public long hash() {
        return hash;
    }

    /** Visits the contents as one named byte array and keeps the hash in step on load. */
    public void state(StateVisitor s) {
        s.bytes(name, data);
        if (s.isReader()) {
            rehash();
        }
    }

    static long mix(long region, int index, int value) {
        long z = region | ((long) index << 8) | value;
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
