package lockstep.nes.core.demo;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import lockstep.nes.core.Console;

/** Test-side pictures: RGB for NES colours, a simple renderer, and PNG output. */
final class Preview {
    private Preview() {
    }

    /** A common 2C02 palette (RGB of colours $00-$3F). */
    static final int[] RGB = {
        0x666666, 0x002A88, 0x1412A7, 0x3B00A4, 0x5C007E, 0x6E0040, 0x6C0600, 0x561D00,
        0x333500, 0x0B4800, 0x005200, 0x004F08, 0x00404D, 0x000000, 0x000000, 0x000000,
        0xADADAD, 0x155FD9, 0x4240FF, 0x7527FE, 0xA01ACC, 0xB71E7B, 0xB53120, 0x994E00,
        0x6B6D00, 0x388700, 0x0C9300, 0x008F32, 0x007C8D, 0x000000, 0x000000, 0x000000,
        0xFFFEFF, 0x64B0FF, 0x9290FF, 0xC676FF, 0xF36AFF, 0xFE6ECC, 0xFE8170, 0xEA9E22,
        0xBCBE00, 0x88D800, 0x5CE430, 0x45E082, 0x48CDDE, 0x4F4F4F, 0x000000, 0x000000,
        0xFFFEFF, 0xC0DFFF, 0xD3D2FF, 0xE8C8FF, 0xFBC2FF, 0xFEC4EA, 0xFECCC5, 0xF7D8A5,
        0xE4E594, 0xCFEF96, 0xBDF4AB, 0xB3F3CC, 0xB5EBF2, 0xB8B8B8, 0x000000, 0x000000,
    };

    /**
     * Renders nametable 0 and the sprites of {@code oam} (256 bytes) the simple way (no
     * scrolling, 8x8 sprites, pattern table 0 for both, at most 8 sprites per line): colour
     * indices $00-$3F, 256x240.
     */
    static int[] render(VramRecorder v, int[] oam, byte[] chr) {
        int[] px = new int[256 * 240];
        boolean[] opaque = new boolean[256 * 240];
        for (int y = 0; y < 240; y++) {
            for (int x = 0; x < 256; x++) {
                int tile = v.tile(x / 8, y / 8);
                int p = pixel(chr, tile, x & 7, y & 7);
                opaque[y * 256 + x] = p != 0;
                px[y * 256 + x] = v.palette(p == 0 ? 0 : v.attribute(x / 8, y / 8) * 4 + p);
            }
        }
        for (int y = 0; y < 240; y++) {
            // The first 8 sprites in OAM order that cover this line; the lowest index wins.
            int found = 0;
            int[] line = new int[8];
            for (int i = 0; i < 64 && found < 8; i++) {
                int top = oam[4 * i] + 1;
                if (y >= top && y < top + 8) {
                    line[found++] = i;
                }
            }
            // Per pixel, the first sprite (lowest OAM index) with an opaque pixel decides: its
            // colour, or the background's when it is behind an opaque background pixel (so a
            // behind-background sprite also hides later sprites there, as on hardware).
            for (int x = 0; x < 256; x++) {
                for (int k = 0; k < found; k++) {
                    int i = line[k];
                    int sx = oam[4 * i + 3];
                    if (x < sx || x >= sx + 8) {
                        continue;
                    }
                    int sy = oam[4 * i] + 1;
                    int attr = oam[4 * i + 2];
                    int tx = (attr & 0x40) != 0 ? 7 - (x - sx) : x - sx;
                    int ty = (attr & 0x80) != 0 ? 7 - (y - sy) : y - sy;
                    int p = pixel(chr, oam[4 * i + 1], tx, ty);
                    if (p == 0) {
                        continue;
                    }
                    if ((attr & 0x20) == 0 || !opaque[y * 256 + x]) {
                        px[y * 256 + x] = v.palette(16 + (attr & 3) * 4 + p);
                    }
                    break;
                }
            }
        }
        return px;
    }

    /** The OAM page in CPU RAM ($0200), which the next NMI copies to the PPU. */
    static int[] ramOam(Console c) {
        int[] oam = new int[256];
        for (int i = 0; i < 256; i++) {
            oam[i] = c.peek(0x200 + i);
        }
        return oam;
    }

    /** The PPU's OAM (what the frame just finished was drawn from). */
    static int[] ppuOam(Console c) {
        int[] oam = new int[256];
        for (int i = 0; i < 256; i++) {
            oam[i] = c.ppu().oam().read(i);
        }
        return oam;
    }

    /** The PPU's last picture as colour indices (emphasis bits dropped). */
    static int[] ppuFrame(Console c) {
        short[] f = c.ppu().frame();
        int[] px = new int[f.length];
        for (int i = 0; i < f.length; i++) {
            px[i] = f[i] & 0x3F;
        }
        return px;
    }

    static int pixel(byte[] chr, int tile, int x, int y) {
        int lo = (chr[tile * 16 + y] >> (7 - x)) & 1;
        int hi = (chr[tile * 16 + 8 + y] >> (7 - x)) & 1;
        return lo | hi << 1;
    }

    /** Writes 256x240 colour indices (low 6 bits used) as a PNG, scaled by {@code scale}. */
    static void png(int[] colours, int scale, Path file) throws IOException {
        BufferedImage img = new BufferedImage(256 * scale, 240 * scale, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 240 * scale; y++) {
            for (int x = 0; x < 256 * scale; x++) {
                img.setRGB(x, y, RGB[colours[(y / scale) * 256 + x / scale] & 0x3F]);
            }
        }
        Files.createDirectories(file.getParent());
        ImageIO.write(img, "png", file.toFile());
    }
}
