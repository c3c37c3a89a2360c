package lockstep.nes.desktop.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lockstep.nes.ppu.Palette;

/**
 * The 64 sprites of OAM: drawn in an 8x8 grid of 16x24 cells (each sprite 8x8 or 8x16 as
 * PPUCTRL sizes them, flipped as its attributes say, on palette-0 backdrop), and listed with
 * their bytes.
 */
public final class Sprites {
    public static final int CELL_W = 16;
    public static final int CELL_H = 24;
    public static final int WIDTH = 8 * CELL_W;
    public static final int HEIGHT = 8 * CELL_H;

    private Sprites() {
    }

    /** Renders into {@code argb} (WIDTH x HEIGHT, 0xAARRGGBB). */
    public static void render(MachineView m, Palette colors, int[] argb) {
        byte[] oam = m.bytes("ppu.oam");
        int ctrl = (int) m.value("ppu.ctrl");
        boolean tall = (ctrl & 0x20) != 0;
        int[] entries = PaletteRam.argb(m, colors);
        int backdrop = entries[0];
        java.util.Arrays.fill(argb, 0, WIDTH * HEIGHT, backdrop);
        for (int n = 0; n < 64; n++) {
            int tile = oam[n * 4 + 1] & 0xFF;
            int attr = oam[n * 4 + 2] & 0xFF;
            int x0 = (n & 7) * CELL_W + 4;
            int y0 = (n >> 3) * CELL_H + 4;
            int height = tall ? 16 : 8;
            for (int row = 0; row < height; row++) {
                int r = (attr & 0x80) != 0 ? height - 1 - row : row;
                int address = patternRow(tile, r, tall, (ctrl & 0x08) != 0 ? 0x1000 : 0);
                int lo = m.ppuPeek(address);
                int hi = m.ppuPeek(address + 8);
                for (int col = 0; col < 8; col++) {
                    int bit = (attr & 0x40) != 0 ? col : 7 - col;
                    int pixel = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                    if (pixel != 0) {
                        argb[(y0 + row) * WIDTH + x0 + col] = entries[(4 + (attr & 3)) * 4 + pixel];
                    }
                }
            }
        }
    }

    /** The pattern address of row {@code row} (0-15) of a sprite's tile. */
    static int patternRow(int tile, int row, boolean tall, int table8x8) {
        if (!tall) {
            return table8x8 + tile * 16 + row;
        }
        int table = (tile & 1) != 0 ? 0x1000 : 0;
        int top = tile & 0xFE;
        return table + (row < 8 ? top : top + 1) * 16 + (row & 7);
    }

    /** The heading of {@link #lines}' columns. */
    public static final String HEADING = "#   Y   X   tile pal";

    /**
     * One line per sprite under {@link #HEADING}: index, Y, X, tile, palette, then "behind" (the
     * background has priority) and H / V for the flips.
     */
    public static List<String> lines(MachineView m) {
        byte[] oam = m.bytes("ppu.oam");
        List<String> out = new ArrayList<>(64);
        for (int n = 0; n < 64; n++) {
            int attr = oam[n * 4 + 2] & 0xFF;
            String flags = ((attr & 0x20) != 0 ? " behind" : "") + ((attr & 0x40) != 0 ? " H" : "")
                    + ((attr & 0x80) != 0 ? " V" : "");
            out.add(String.format(Locale.ROOT, "%02d  %02X  %02X  %02X   %d%s", n, oam[n * 4] & 0xFF,
                    oam[n * 4 + 3] & 0xFF, oam[n * 4 + 1] & 0xFF, 4 + (attr & 3), flags));
        }
        return out;
    }
}
