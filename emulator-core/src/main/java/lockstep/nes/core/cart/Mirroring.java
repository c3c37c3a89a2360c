package lockstep.nes.core.cart;

/** Nametable arrangement: which 1 KiB page of CIRAM each of the four nametables uses. */
public enum Mirroring {
    HORIZONTAL(0, 0, 1, 1),
    VERTICAL(0, 1, 0, 1),
    SINGLE_A(0, 0, 0, 0),
    SINGLE_B(1, 1, 1, 1),
    FOUR_SCREEN(0, 1, 2, 3);

    private final int[] pages;

    Mirroring(int... pages) {
        this.pages = pages;
    }

    /**
     * The mirroring a register value selects on the many boards that order them vertical,
     * horizontal, one-screen A, one-screen B (FME-7, VRC2/4, VRC6, Bandai FCG, Sunsoft-3/4):
     * 0, 1, 2, and anything else (a poked or loaded value out of range included) one-screen B.
     */
    public static Mirroring vhab(int value) {
        return value == 0 ? VERTICAL : value == 1 ? HORIZONTAL : value == 2 ? SINGLE_A : SINGLE_B;
    }

    /** The CIRAM page (0..3) used by nametable {@code table} (0..3). */
    public int page(int table) {
        return pages[table];
    }
}
