package lockstep.nes.ppu;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/** Turns PPU frames (256x240 9-bit values) into RGB pixels and PNG files. */
public final class FrameImage {
    private FrameImage() {
    }

    /**
     * Converts {@code frame} to 0xRRGGBB pixels in {@code out} (length at least 256*240);
     * allocates nothing.
     */
    public static void toRgb(short[] frame, Palette palette, int[] out) {
        final int[] table = palette.table();
        final int n = Ppu.WIDTH * Ppu.HEIGHT;
        for (int i = 0; i < n; i++) {
            out[i] = table[frame[i] & 0x1FF];
        }
    }

    /**
     * A 64-bit FNV-1a hash of the frame's 9-bit values (each as two bytes, low first), as 16 hex
     * digits: the frame hash of the ROM manifest. Independent of the palette.
     */
    public static String hash(short[] frame) {
        long h = 0xCBF29CE484222325L;
        for (short value : frame) {
            h = (h ^ (value & 0xFF)) * 0x100000001B3L;
            h = (h ^ ((value >> 8) & 0x01)) * 0x100000001B3L;
        }
        return String.format("%016x", h);
    }

    /** A new image of {@code frame}. */
    public static BufferedImage toImage(short[] frame, Palette palette) {
        int[] rgb = new int[Ppu.WIDTH * Ppu.HEIGHT];
        toRgb(frame, palette, rgb);
        BufferedImage image = new BufferedImage(Ppu.WIDTH, Ppu.HEIGHT, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, Ppu.WIDTH, Ppu.HEIGHT, rgb, 0, Ppu.WIDTH);
        return image;
    }

    /**
     * {@code frame} encoded as a 256x240 PNG, for the caller to write (the project's files are
     * written whole, through a temporary file: {@code lockstep.nes.core.AtomicFile}).
     */
    public static byte[] png(short[] frame, Palette palette) {
        return png(toImage(frame, palette));
    }

    /**
     * {@code image} encoded as PNG, in memory. The encoder's stream is cached in memory, never in
     * a temporary file: ImageIO's file cache registers a shutdown hook, which the JVM refuses
     * once a signal has begun its shutdown, when a run stopped by SIGINT or SIGTERM still writes
     * its last picture.
     */
    public static byte[] png(BufferedImage image) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        var writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) {
            throw new IllegalStateException("no PNG writer in this JVM");
        }
        ImageWriter writer = writers.next();
        try (ImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            writer.write(image);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding into memory failed", e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }
}
