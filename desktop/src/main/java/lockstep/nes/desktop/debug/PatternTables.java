package lockstep.nes.desktop.debug;

import lockstep.nes.ppu.Palette;

/**
 * Both pattern tables as the PPU reads them now, side by side: 256x128 pixels, tile n of table
 * t at (128t + 8(n % 16), 8(n / 16)), each 2-bit pixel coloured by one of the eight palettes
 * of palette RAM (0-3 background, 4-7 sprites).
 */
public final class PatternTables {
    public static final int WIDTH = 256;
    public static final int HEIGHT = 128;

    private PatternTables() {
    }

    /** Renders into {@code argb} (WIDTH x HEIGHT, 0xAARRGGBB). */
    public static void render(MachineView m, int palette, Palette colors, int[] argb) {
        int[] entries = PaletteRam.argb(m, colors);
        for (int table = 0; table < 2; table++) {
            for (int tile = 0; tile < 256; tile++) {
                int base = table * 0x1000 + tile * 16;
                int x0 = table * 128 + (tile & 15) * 8;
                int y0 = (tile >> 4) * 8;
                for (int row = 0; row < 8; row++) {
                    int lo = m.ppuPeek(base + row);
                    int hi = m.ppuPeek(base + row + 8);
                    for (int col = 0; col < 8; col++) {
                        int bit = 7 - col;
                        int pixel = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                        argb[(y0 + row) * WIDTH + x0 + col] = entries[(palette & 7) * 4 + pixel];
                    }
                }
            }
        }
    }
}
