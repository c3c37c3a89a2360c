package lockstep.nes.roms;

import lockstep.nes.core.Console;

/**
 * Reads the text a ROM printed into the first nametable ($2000, 32x30 tiles). blargg's screen
 * tests use a font whose tile numbers are ASCII codes, so a tile number $20-$7E is that
 * character and anything else a blank.
 *
 * <p>The nametable is read through the cartridge's PPU bus ({@code Mapper.ppuRead}) at frame
 * boundaries. Nametable addresses have A12 low, so boards that watch A12 or CHR latches
 * (MMC2/MMC3) see no pattern fetch from it.
 */
public final class ScreenText {
    private ScreenText() {
    }

    /** The nametable's text, one line per tile row, right-trimmed, without blank rows. */
    public static String read(Console console) {
        StringBuilder sb = new StringBuilder();
        char[] row = new char[32];
        for (int y = 0; y < 30; y++) {
            for (int x = 0; x < 32; x++) {
                int tile = console.mapper().ppuRead(0x2000 + y * 32 + x) & 0xFF;
                row[x] = tile >= 0x20 && tile < 0x7F ? (char) tile : ' ';
            }
            String line = new String(row).stripTrailing();
            if (!line.isBlank()) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }
}
