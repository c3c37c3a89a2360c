package lockstep.nes.desktop.debug;

import lockstep.nes.ppu.Palette;

/**
 * The four nametables as the cartridge maps them now (512x480: $2000 top left, $2400 top right,
 * $2800 bottom left, $2C00 bottom right), each tile drawn with its attribute's palette and the
 * background pattern table PPUCTRL selects, and the 256x240 window the scroll registers select
 * outlined (wrapping around the edges as the picture does).
 */
public final class Nametables {
    public static final int WIDTH = 512;
    public static final int HEIGHT = 480;
    /** The outline of the scroll window. */
    public static final int WINDOW_COLOR = 0xFFFF40FF;

    private Nametables() {
    }

    /** Renders into {@code argb} (WIDTH x HEIGHT, 0xAARRGGBB). */
    public static void render(MachineView m, Palette colors, int[] argb) {
        int patternBase = (m.value("ppu.ctrl") & 0x10) != 0 ? 0x1000 : 0;
        int[] entries = PaletteRam.argb(m, colors);
        for (int table = 0; table < 4; table++) {
            int ntBase = 0x2000 + table * 0x400;
            int ox = (table & 1) * 256;
            int oy = (table >> 1) * 240;
            for (int ty = 0; ty < 30; ty++) {
                for (int tx = 0; tx < 32; tx++) {
                    int tile = m.ppuPeek(ntBase + ty * 32 + tx);
                    int attr = m.ppuPeek(ntBase + 0x3C0 + (ty >> 2) * 8 + (tx >> 2));
                    int palette = (attr >> (((ty & 2) << 1) | (tx & 2))) & 3;
                    for (int row = 0; row < 8; row++) {
                        int lo = m.ppuPeek(patternBase + tile * 16 + row);
                        int hi = m.ppuPeek(patternBase + tile * 16 + row + 8);
                        for (int col = 0; col < 8; col++) {
                            int bit = 7 - col;
                            int pixel = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                            argb[(oy + ty * 8 + row) * WIDTH + ox + tx * 8 + col] = entries[palette * 4 + pixel];
                        }
                    }
                }
            }
        }
        outlineWindow(scrollX(m), scrollY(m), argb);
    }

    /**
     * What each quadrant holds, for the two lines above the picture (one per row of it): a quadrant whose 1 KiB equals an
     * earlier one's is named as its copy ("$2400 = $2000", the cartridge's mirroring), and one
     * whose 960 tiles are all one tile says so ("$2800: all $00 tiles"), so that a page the game
     * never drew reads as such rather than as a viewer that drew nothing.
     */
    public static java.util.List<String> caption(MachineView m) {
        StringBuilder b = new StringBuilder();
        int[][] pages = new int[4][0x400];
        for (int table = 0; table < 4; table++) {
            for (int i = 0; i < 0x400; i++) {
                pages[table][i] = m.ppuPeek(0x2000 + table * 0x400 + i);
            }
        }
        for (int table = 0; table < 4; table++) {
            // One line per row of the picture: $2000 and $2400 over $2800 and $2C00.
            b.append(table == 0 ? "" : table == 2 ? "\n" : "   ").append(String.format(java.util.Locale.ROOT, "$%04X",
                    0x2000 + table * 0x400));
            int same = -1;
            for (int earlier = 0; earlier < table && same < 0; earlier++) {
                if (java.util.Arrays.equals(pages[table], pages[earlier])) {
                    same = earlier;
                }
            }
            if (same >= 0) {
                b.append(String.format(java.util.Locale.ROOT, " = $%04X", 0x2000 + same * 0x400));
                continue;
            }
            boolean oneTile = true;
            for (int i = 1; i < 960 && oneTile; i++) {
                oneTile = pages[table][i] == pages[table][0];
            }
            if (oneTile) {
                b.append(String.format(java.util.Locale.ROOT, ": all $%02X tiles", pages[table][0]));
            }
        }
        return b.toString().lines().toList();
    }

    /**
     * The picture's left edge in the 512-wide nametable space: coarse X and the horizontal
     * nametable bit of t, and fine X (what the next frame starts from).
     */
    public static int scrollX(MachineView m) {
        int t = (int) m.value("ppu.t");
        return ((t & 0x400) != 0 ? 256 : 0) + (t & 0x1F) * 8 + (int) m.value("ppu.fineX");
    }

    /** The picture's top edge in the 480-high space: coarse Y, the vertical nametable bit and fine Y of t. */
    public static int scrollY(MachineView m) {
        int t = (int) m.value("ppu.t");
        return ((t & 0x800) != 0 ? 240 : 0) + ((t >> 5) & 0x1F) * 8 + ((t >> 12) & 7);
    }

    private static void outlineWindow(int x0, int y0, int[] argb) {
        for (int i = 0; i < 256; i++) {
            plot(x0 + i, y0, argb);
            plot(x0 + i, y0 + 239, argb);
        }
        for (int j = 0; j < 240; j++) {
            plot(x0, y0 + j, argb);
            plot(x0 + 255, y0 + j, argb);
        }
    }

    private static void plot(int x, int y, int[] argb) {
        argb[Math.floorMod(y, HEIGHT) * WIDTH + Math.floorMod(x, WIDTH)] = WINDOW_COLOR;
    }
}
