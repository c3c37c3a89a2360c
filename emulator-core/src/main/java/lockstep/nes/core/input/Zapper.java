package lockstep.nes.core.input;

/**
 * The Zapper's light detection. The photodiode sees a point of the picture as lit for a
 * short time after the CRT beam has drawn it bright: here, from the moment the PPU draws the
 * pixel until 20 scanlines later. "Bright" means an average RGB level of at least about a
 * third of full scale in the standard 2C02 palette (colour emphasis is ignored).
 */
public final class Zapper {
    /** Scanlines during which a lit pixel keeps the sensor on. */
    private static final int PERSISTENCE = 20;
    private static final boolean[] BRIGHT = new boolean[64];

    static {
        for (int c = 0; c < 64; c++) {
            int row = c >> 4;
            int hue = c & 0x0F;
            boolean bright;
            if (hue >= 0x0E) {
                bright = false;
            } else if (hue == 0x0D) {
                bright = row == 3;
            } else if (row == 0) {
                bright = hue == 0;
            } else if (row == 1) {
                bright = hue <= 0x06 || hue == 0x0C;
            } else {
                bright = true;
            }
            BRIGHT[c] = bright;
        }
    }

    private Zapper() {
    }

    /**
     * True if a Zapper aimed at (x, y) sees light now, with the PPU at ({@code scanline},
     * {@code dot}) and {@code frame} its picture (palette indices in the low 6 bits, 256 x 240).
     */
    public static boolean senses(short[] frame, int scanline, int dot, int x, int y) {
        if (x < 0 || x > 255 || y < 0 || y > 239) {
            return false;
        }
        if (scanline < y || scanline - y > PERSISTENCE || (scanline == y && dot <= x)) {
            return false;
        }
        return BRIGHT[frame[(y << 8) | x] & 0x3F];
    }

    /** Whether palette colour {@code color} (0-63) counts as bright. */
    public static boolean bright(int color) {
        return BRIGHT[color & 0x3F];
    }
}
