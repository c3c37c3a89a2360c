package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A $2007 read whose state-machine read lands on a pattern-low fetch's address (odd) dot: the
 * octal latch passes the byte still on the lines, the attribute byte $FF, so the read and the
 * fetch both come from $0FFF. The nametables are all tile $FF and attributes $FF; tile $FF is
 * blank but for $0FFF = $FF, so the fetch's $FF draws 8 opaque pixels (palette 3, colour 1) on
 * an otherwise blank line (seen as line 8 ends), and the buffer holds $FF. The program is
 * {@link DataReadDuringRenderingTest}'s, run at every CPU/PPU alignment.
 */
class DataReadOnAddressDotProgramTest {
    static final int COLOUR = 0x16;
    static final int BACKDROP = 0x0F;

    @Test
    void aPatternLowFetchAfterAttributeFfReadsFromFff() {
        final byte[] chr = new byte[0x2000];
        chr[0x0FFF] = (byte) 0xFF;
        final String palette = poke(0x3F00, BACKDROP) + poke(0x3F0D, COLOUR);
        int checked = 0;
        final StringBuilder misses = new StringBuilder();
        for (int phase = 0; phase < PHASES; phase++) {
            int checkedInPhase = 0;
            for (int n = 0; n <= 80; n++) {
                final HardwareProgram p = HardwareProgram.of(
                        DataReadDuringRenderingTest.program(0xFF, palette, phase, n), chr);
                final short[] frame = new short[256];
                final int at = DataReadDuringRenderingTest.readDot(p, frame);
                final int e = at & 0xFFFF;
                if (at >> 16 != 8 || (e & 7) != 5 || e > 237) {
                    continue;
                }
                checkedInPhase++;
                final StringBuilder line = new StringBuilder();
                for (int x = e + 3; x < Math.min(256, e + 27); x++) {
                    final int expected = x >= e + 11 && x <= e + 18 ? COLOUR : BACKDROP;
                    if ((frame[x] & 0x3F) != expected) {
                        line.append(" x ").append(x);
                    }
                }
                if (p.ram(0x10) != 0xFF || line.length() > 0) {
                    misses.append(" phase ").append(phase).append(" dot ").append(e).append(": buffer $")
                            .append(Integer.toHexString(p.ram(0x10))).append(line);
                }
            }
            assertTrue(checkedInPhase > 0, "a read on a pattern-low address dot at phase " + phase);
            checked += checkedInPhase;
        }
        assertTrue(checked >= 12, "reads checked: " + checked);
        assertEquals("", misses.toString());
    }
}
