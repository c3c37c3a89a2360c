package lockstep.nes.ppu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Maps the PPU's 9-bit output values (6-bit colour | 3 emphasis bits << 6) to 0xRRGGBB.
 *
 * <p>The default palette is generated from a model of the 2C02's composite signal: each colour
 * is a square wave between two voltage levels whose phase is the hue; emphasis bits attenuate
 * parts of the wave. The wave is decoded to YIQ like a TV would, then to RGB. Output only, never
 * emulation state (so the floating point here is allowed; it uses StrictMath to stay identical
 * on every JVM).
 */
public final class Palette {
    public static final int SIZE = 512;

    // Signal voltages relative to sync (NESdev "NTSC video"): low and high level of each luma row.
    private static final double[] LOW = {0.350, 0.518, 0.962, 1.550};
    private static final double[] HIGH = {1.094, 1.506, 1.962, 1.962};
    private static final double BLACK = 0.518;
    private static final double WHITE = 1.962;
    private static final double ATTENUATION = 0.746;

    private final int[] rgb;

    private Palette(int[] rgb) {
        this.rgb = rgb;
    }

    /** The generated NTSC palette (all 512 entries). */
    public static Palette ntsc() {
        int[] rgb = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            rgb[i] = generate(i);
        }
        return new Palette(rgb);
    }

    /**
     * The generated palette of the 2C07 (PAL) and the UA6538 (Dendy): the same colours, but $2001
     * bit 5 emphasises green and bit 6 red, the 2C02's pair swapped (NESdev "PPU registers").
     */
    public static Palette pal() {
        int[] rgb = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            rgb[i] = generate((i & 0x13F) | ((i & 0x40) << 1) | ((i & 0x80) >> 1));
        }
        return new Palette(rgb);
    }

    /** The generated palette of {@code region}'s PPU. */
    public static Palette of(Region region) {
        return region.swapsRedGreenEmphasis ? pal() : ntsc();
    }

    /**
     * Loads a .pal file: 192 bytes (64 colours; emphasis is then applied by attenuating the
     * non-emphasised channels) or 1536 bytes (all 512 entries).
     *
     * @throws IOException when the file cannot be read or has another size (message names both)
     */
    public static Palette load(Path path) throws IOException {
        byte[] data;
        try {
            data = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new IOException(path + ": cannot read palette (" + e.getMessage() + ")", e);
        }
        return parse(path.toString(), data);
    }

    /** As {@link #load}, from bytes; {@code name} is used in the error message. */
    public static Palette parse(String name, byte[] data) throws IOException {
        if (data.length != 192 && data.length != 1536) {
            throw new IOException(name + ": a .pal file must be 192 or 1536 bytes, not " + data.length);
        }
        int[] rgb = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            int src = data.length == 1536 ? i : i & 0x3F;
            int r = data[src * 3] & 0xFF;
            int g = data[src * 3 + 1] & 0xFF;
            int b = data[src * 3 + 2] & 0xFF;
            if (data.length == 192) {
                int emphasis = i >> 6;
                if ((i & 0x0F) < 0x0E && emphasis != 0) {
                    // An emphasis bit dims the other two channels.
                    double fr = 1;
                    double fg = 1;
                    double fb = 1;
                    if ((emphasis & 1) != 0) {
                        fg *= ATTENUATION;
                        fb *= ATTENUATION;
                    }
                    if ((emphasis & 2) != 0) {
                        fr *= ATTENUATION;
                        fb *= ATTENUATION;
                    }
                    if ((emphasis & 4) != 0) {
                        fr *= ATTENUATION;
                        fg *= ATTENUATION;
                    }
                    r = (int) (r * fr);
                    g = (int) (g * fg);
                    b = (int) (b * fb);
                }
            }
            rgb[i] = (r << 16) | (g << 8) | b;
        }
        return new Palette(rgb);
    }

    /** 0xRRGGBB of the 9-bit value {@code value}. */
    public int rgb(int value) {
        return rgb[value & 0x1FF];
    }

    /** The 512-entry table (a copy). */
    public int[] toArray() {
        return rgb.clone();
    }

    int[] table() {
        return rgb;
    }

    /** The composite level (normalised to black = 0, white = 1) of {@code value} at phase 0..11. */
    private static double signal(int value, int phase) {
        int color = value & 0x0F;
        int level = (value >> 4) & 3;
        int emphasis = (value >> 6) & 7;
        if (color > 13) {
            level = 1;
        }
        double low = LOW[level];
        double high = HIGH[level];
        if (color == 0) {
            low = high;
        }
        if (color > 12) {
            high = low;
        }
        double s = inPhase(color, phase) ? high : low;
        if (((emphasis & 1) != 0 && inPhase(0, phase))
                || ((emphasis & 2) != 0 && inPhase(4, phase))
                || ((emphasis & 4) != 0 && inPhase(8, phase))) {
            s *= ATTENUATION;
        }
        return (s - BLACK) / (WHITE - BLACK);
    }

    private static boolean inPhase(int color, int phase) {
        return (color + phase) % 12 < 6;
    }

    private static int generate(int value) {
        double y = 0;
        double i = 0;
        double q = 0;
        // Decoder phase (in 30-degree steps) that puts the colour burst where a TV's
        // hue control would, and the chroma gain: chosen so colour $16 is red, $12 blue, $1A green.
        final double hue = 4.0;
        for (int p = 0; p < 12; p++) {
            double s = signal(value, p);
            double angle = StrictMath.PI * (p + hue) / 6;
            y += s;
            i += s * StrictMath.cos(angle);
            q += s * StrictMath.sin(angle);
        }
        y /= 12;
        i /= 12;
        q /= 12;
        final double saturation = 1.5;
        i *= saturation;
        q *= saturation;
        double r = y + 0.956 * i + 0.621 * q;
        double g = y - 0.272 * i - 0.647 * q;
        double b = y - 1.106 * i + 1.703 * q;
        return (channel(r) << 16) | (channel(g) << 8) | channel(b);
    }

    private static int channel(double c) {
        int x = (int) StrictMath.round(c * 255);
        return x < 0 ? 0 : Math.min(x, 255);
    }
}
