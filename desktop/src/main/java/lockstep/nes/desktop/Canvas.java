package lockstep.nes.desktop;

import java.util.Arrays;

/**
 * An ARGB pixel buffer the overlay text is drawn into (then uploaded as a texture and blended
 * over the picture). One canvas pixel covers a whole number of window pixels.
 */
final class Canvas {
    final int width;
    final int height;
    final int[] pixels;

    Canvas(int width, int height) {
        this.width = width;
        this.height = height;
        this.pixels = new int[width * height];
    }

    void clear() {
        Arrays.fill(pixels, 0);
    }

    void fill(int x, int y, int w, int h, int argb) {
        int x0 = Math.max(0, x);
        int y0 = Math.max(0, y);
        int x1 = Math.min(width, x + w);
        int y1 = Math.min(height, y + h);
        for (int yy = y0; yy < y1; yy++) {
            Arrays.fill(pixels, yy * width + x0, yy * width + Math.max(x0, x1), argb);
        }
    }

    /** Characters that fit on one line from x = {@code x}. */
    int fits(int x) {
        return Math.max(0, (width - x) / BitmapFont.CELL_W);
    }

    /** Draws {@code text} with its top-left at (x, y); what does not fit is cut. */
    void text(int x, int y, String text, int argb) {
        for (int i = 0; i < text.length(); i++) {
            int cx = x + i * BitmapFont.CELL_W;
            if (cx + BitmapFont.GLYPH_W > width) {
                return;
            }
            char c = text.charAt(i);
            for (int gy = 0; gy < BitmapFont.GLYPH_H; gy++) {
                int py = y + gy;
                if (py < 0 || py >= height) {
                    continue;
                }
                int bits = BitmapFont.row(c, gy);
                for (int gx = 0; gx < BitmapFont.GLYPH_W; gx++) {
                    if ((bits & (0x10 >> gx)) != 0 && cx + gx >= 0) {
                        pixels[py * width + cx + gx] = argb;
                    }
                }
            }
        }
    }

    private static int scaleAlpha(int argb, int opacity) {
        int a = (argb >>> 24) * Math.min(256, opacity) / 256;
        return (a << 24) | (argb & 0xFFFFFF);
    }

    /**
     * A box of lines with a translucent dark background, at (x, y); long lines are cut to the
     * canvas. Returns the box height.
     */
    int panel(int x, int y, java.util.List<String> lines, int argb) {
        return panel(x, y, lines, argb, 256);
    }

    /** As {@link #panel(int, int, java.util.List, int)}, at {@code opacity}/256 of its alpha. */
    int panel(int x, int y, java.util.List<String> lines, int argb, int opacity) {
        if (lines.isEmpty() || opacity <= 0) {
            return 0;
        }
        int longest = 0;
        for (String l : lines) {
            longest = Math.max(longest, l.length());
        }
        int cols = Math.min(longest, fits(x + 2));
        int w = cols * BitmapFont.CELL_W + 3;
        int h = lines.size() * BitmapFont.CELL_H + 2;
        fill(x, y, w, h, scaleAlpha(0xB0000000, opacity));
        int color = scaleAlpha(argb, opacity);
        for (int i = 0; i < lines.size(); i++) {
            text(x + 2, y + 2 + i * BitmapFont.CELL_H, lines.get(i), color);
        }
        return h;
    }
}
