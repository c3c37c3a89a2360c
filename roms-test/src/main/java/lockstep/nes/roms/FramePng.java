package lockstep.nes.roms;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import javax.imageio.ImageIO;

/**
 * Writes a 256x240 picture of 9-bit values as a PNG.
 *
 * <p>TODO(ppu issue): switch to lockstep.nes.ppu.FrameImage / Palette when they land. Until
 * then colours are shown as greys by NES luminance row (index bits 4-5), $xD-$xF as black.
 */
public final class FramePng {
    public static final int WIDTH = 256;
    public static final int HEIGHT = 240;

    private FramePng() {
    }

    static int rgb(int value) {
        int index = value & 0x3F;
        int column = index & 0x0F;
        int grey;
        if (column >= 0x0E || index == 0x0D) {
            grey = 0;
        } else if (column == 0x0D) {
            grey = 0x50 + (index >> 4) * 0x30;
        } else if (column == 0) {
            grey = new int[] {0x66, 0xAD, 0xFF, 0xFF}[index >> 4];
        } else {
            grey = new int[] {0x40, 0x80, 0xC8, 0xF0}[index >> 4];
        }
        return (grey << 16) | (grey << 8) | grey;
    }

    public static BufferedImage image(short[] picture) {
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                img.setRGB(x, y, rgb(picture[y * WIDTH + x]));
            }
        }
        return img;
    }

    /** Writes {@code picture} to {@code file} (parent folders created; written atomically). */
    public static void write(short[] picture, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".frame", ".png.tmp");
        try {
            if (!ImageIO.write(image(picture), "png", tmp.toFile())) {
                throw new IOException("no PNG writer in this JDK");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A file name for a ROM path: its path under the roms dir with '/' turned into "__". */
    public static String fileName(String rom, String suffix) {
        String base = rom.replaceAll("\\.(?i:nes)$", "").replaceAll("^/+", "");
        return base.replace("/", "__").replace('\\', '_').replace(' ', '_').replace(':', '_') + suffix + ".png";
    }
}
