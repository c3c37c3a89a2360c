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

    /** The CIRAM page (0..3) used by nametable {@code table} (0..3). */
    public int page(int table) {
        return pages[table];
    }
}
