package lockstep.nes.roms;

import java.io.IOException;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;

/**
 * Writes a 256x240 picture of 9-bit values as a PNG in the PPU's generated NTSC palette
 * (lockstep.nes.ppu.FrameImage / Palette), atomically.
 */
public final class FramePng {
    private static final Palette PALETTE = Palette.ntsc();

    private FramePng() {
    }

    /** Writes {@code picture} to {@code file} (parent folders created; written atomically). */
    public static void write(short[] picture, Path file) throws IOException {
        AtomicFile.writeCreatingFolder(file, FrameImage.png(picture, PALETTE));
    }

    /** A file name for a ROM path: its path under the roms dir with '/' turned into "__". */
    public static String fileName(String rom, String suffix) {
        String base = rom.replaceAll("\\.(?i:nes)$", "").replaceAll("^/+", "");
        return base.replace("/", "__").replace('\\', '_').replace(' ', '_').replace(':', '_') + suffix + ".png";
    }
}
