package lockstep.nes.desktop.debug;

import lockstep.nes.ppu.Palette;

/** Palette RAM as 32 swatches of 16x16: the background palettes on the top row, the sprites' below. */
public final class PaletteRam {
    public static final int SWATCH = 16;
    public static final int WIDTH = 16 * SWATCH;
    public static final int HEIGHT = 2 * SWATCH;

    private PaletteRam() {
    }

    /**
     * The 32 entries of palette RAM as 0xAARRGGBB, as the PPU draws them: entry 0 of every
     * palette shows the backdrop ($3F00).
     */
    public static int[] argb(MachineView m, Palette colors) {
        int[] out = new int[32];
        for (int i = 0; i < 32; i++) {
            out[i] = 0xFF000000 | colors.rgb(m.ppuPeek((i & 3) == 0 ? 0x3F00 : 0x3F00 + i));
        }
        return out;
    }

    /** Renders into {@code argb} (WIDTH x HEIGHT, 0xAARRGGBB): each entry as it is stored. */
    public static void render(MachineView m, Palette colors, int[] argb) {
        for (int i = 0; i < 32; i++) {
            int color = 0xFF000000 | colors.rgb(m.ppuPeek(0x3F00 + i));
            int x0 = (i & 15) * SWATCH;
            int y0 = (i >> 4) * SWATCH;
            for (int y = 0; y < SWATCH; y++) {
                for (int x = 0; x < SWATCH; x++) {
                    argb[(y0 + y) * WIDTH + x0 + x] = color;
                }
            }
        }
    }
}
