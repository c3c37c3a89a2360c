package lockstep.nes.state;

/**
 * The constants of the per-cycle state digest, shared by the reference definition
 * ({@link DigestTerm}) and the components' fast paths ({@link Digestible#digestTerm}).
 *
 * <p>A section's term is {@code sum over j of W(j) * word_j} over the 64-bit words its own
 * values pack into (see {@link DigestTerm}), plus {@code section(name) * term} of each child
 * section. {@code W(j) = BASE + (j + 1) * STEP} is odd for every j (BASE odd, STEP even), and
 * so is every {@link #section} factor, so the coefficient of every packed bit is an odd number
 * times a power of two that fits the value's width: changing any single value always changes
 * the sum. W0..W39 are compile-time constants for the fast paths; {@link #w} gives any index.
 */
public final class DigestKeys {
    public static final long BASE = 0xD6E8FEB86659FD93L;  // odd
    public static final long STEP = 0x9E3779B97F4A7C16L;  // even
    public static final long W0 = BASE + 1 * STEP;
    public static final long W1 = BASE + 2 * STEP;
    public static final long W2 = BASE + 3 * STEP;
    public static final long W3 = BASE + 4 * STEP;
    public static final long W4 = BASE + 5 * STEP;
    public static final long W5 = BASE + 6 * STEP;
    public static final long W6 = BASE + 7 * STEP;
    public static final long W7 = BASE + 8 * STEP;
    public static final long W8 = BASE + 9 * STEP;
    public static final long W9 = BASE + 10 * STEP;
    public static final long W10 = BASE + 11 * STEP;
    public static final long W11 = BASE + 12 * STEP;
    public static final long W12 = BASE + 13 * STEP;
    public static final long W13 = BASE + 14 * STEP;
    public static final long W14 = BASE + 15 * STEP;
    public static final long W15 = BASE + 16 * STEP;
    public static final long W16 = BASE + 17 * STEP;
    public static final long W17 = BASE + 18 * STEP;
    public static final long W18 = BASE + 19 * STEP;
    public static final long W19 = BASE + 20 * STEP;
    public static final long W20 = BASE + 21 * STEP;
    public static final long W21 = BASE + 22 * STEP;
    public static final long W22 = BASE + 23 * STEP;
    public static final long W23 = BASE + 24 * STEP;
    public static final long W24 = BASE + 25 * STEP;
    public static final long W25 = BASE + 26 * STEP;
    public static final long W26 = BASE + 27 * STEP;
    public static final long W27 = BASE + 28 * STEP;
    public static final long W28 = BASE + 29 * STEP;
    public static final long W29 = BASE + 30 * STEP;
    public static final long W30 = BASE + 31 * STEP;
    public static final long W31 = BASE + 32 * STEP;
    public static final long W32 = BASE + 33 * STEP;
    public static final long W33 = BASE + 34 * STEP;
    public static final long W34 = BASE + 35 * STEP;
    public static final long W35 = BASE + 36 * STEP;
    public static final long W36 = BASE + 37 * STEP;
    public static final long W37 = BASE + 38 * STEP;
    public static final long W38 = BASE + 39 * STEP;
    public static final long W39 = BASE + 40 * STEP;

    private DigestKeys() {
    }

    /** W(j), the weight of a section's j-th word (0-based). */
    public static long w(int j) {
        return BASE + (j + 1) * STEP;
    }

    /** The odd factor of a child section named {@code name} (its local name, e.g. "pulse1"). */
    public static long section(String name) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0x100000001B3L;
        }
        return fmix64(h) | 1;
    }

    /** MurmurHash3's 64-bit finaliser. */
    public static long fmix64(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    /** A bool as the 0/1 the digest packs. */
    public static long b(boolean v) {
        return v ? 1L : 0L;
    }
}
