package lockstep.nes.core.demo;

/**
 * 8 KiB of CHR: two pattern tables of 256 tiles, drawn from text pictures.
 *
 * <p>A tile is 8x8 pixels of 2-bit colour, stored as 16 bytes: 8 rows of bit plane 0, then
 * 8 rows of bit plane 1; the leftmost pixel is bit 7.
 */
public final class TileSet {
    private final byte[] chr = new byte[0x2000];

    /**
     * Draws tile {@code index} (0-511; 256+ is the second pattern table) from a picture of 8
     * rows of 8 pixels, rows separated by whitespace: {@code .} is colour 0, {@code 1}-{@code 3}
     * the other colours.
     */
    public TileSet tile(int index, String picture) {
        String[] rows = picture.trim().split("\\s+");
        if (rows.length != 8) {
            throw new IllegalArgumentException("tile " + index + ": need 8 rows, got " + rows.length);
        }
        int[][] pixels = new int[8][8];
        for (int y = 0; y < 8; y++) {
            if (rows[y].length() != 8) {
                throw new IllegalArgumentException("tile " + index + " row " + y + ": need 8 pixels");
            }
            for (int x = 0; x < 8; x++) {
                char c = rows[y].charAt(x);
                pixels[y][x] = switch (c) {
                    case '.' -> 0;
                    case '1' -> 1;
                    case '2' -> 2;
                    case '3' -> 3;
                    default -> throw new IllegalArgumentException("tile " + index + ": bad pixel '" + c + "'");
                };
            }
        }
        return pixels(index, pixels);
    }

    /** Stores tile {@code index} from pixels[y][x] with values 0-3. */
    public TileSet pixels(int index, int[][] pixels) {
        if (index < 0 || index >= 512) {
            throw new IllegalArgumentException("tile index out of range: " + index);
        }
        int base = index * 16;
        for (int y = 0; y < 8; y++) {
            int lo = 0;
            int hi = 0;
            for (int x = 0; x < 8; x++) {
                int p = pixels[y][x];
                lo |= (p & 1) << (7 - x);
                hi |= ((p >> 1) & 1) << (7 - x);
            }
            chr[base + y] = (byte) lo;
            chr[base + 8 + y] = (byte) hi;
        }
        return this;
    }

    /** The colour (0-3) of pixel (x, y) of tile {@code index}. */
    public int pixel(int index, int x, int y) {
        int base = index * 16;
        int lo = (chr[base + y] >> (7 - x)) & 1;
        int hi = (chr[base + 8 + y] >> (7 - x)) & 1;
        return lo | hi << 1;
    }

    /** A copy of the 8 KiB CHR image. */
    public byte[] bytes() {
        return chr.clone();
    }
}
