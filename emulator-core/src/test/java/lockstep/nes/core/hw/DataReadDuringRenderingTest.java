package lockstep.nes.core.hw;

import static lockstep.nes.core.hw.PpuProgramKit.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import lockstep.nes.core.Console;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import org.junit.jupiter.api.Test;

/**
 * A $2007 read during rendering returns the old buffer and starts the PPU's data state machine:
 * it sets its address up one dot after the first PPU clock that follows the read, idles a dot,
 * then reads. Rendering owns the bus, so a read on an even (read) dot loads exactly the byte the
 * rendering fetch reads on that dot. Each fetch kind reads its own byte here: nametables and
 * attributes $21, tile $21's planes $3C and $C3, tile $FF's (which the empty sprite slots fetch)
 * $5A and $A5. The program reads $2007 once on line 8, {@code n} cycles into the line per run
 * (across the background fetches, the sprite fetches and the unused nametable fetches), at
 * every CPU/PPU alignment ({@link PpuProgramKit#syncPhase}), then in vblank reads the buffer back
 * through $2007.
 */
class DataReadDuringRenderingTest {
    static final int NT = 0x21;
    static final int LOW = 0x3C;
    static final int HIGH = 0xC3;
    static final int EMPTY_LOW = 0x5A;
    static final int EMPTY_HIGH = 0xA5;
    static byte[] chr() {
        final byte[] chr = new byte[0x2000];
        Arrays.fill(chr, 0x210, 0x218, (byte) LOW);
        Arrays.fill(chr, 0x218, 0x220, (byte) HIGH);
        Arrays.fill(chr, 0xFF0, 0xFF8, (byte) EMPTY_LOW);
        Arrays.fill(chr, 0xFF8, 0x1000, (byte) EMPTY_HIGH);
        return chr;
    }

    /** The program: its read of $2007 is at label {@code rd}; the buffer it loaded ends at $10. */
    static String program(int tile, int phase, int n) {
        return program(tile, "", phase, n);
    }

    /** As {@link #program(int, int, int)}, with {@code extra} (in forced blank) after the set-up. */
    static String program(int tile, String extra, int phase, int n) {
        return String.join("\n",
                setUp(tile),
                extra,
                syncPhase(phase),
                startRendering(0x0A),
                "  jsr wait_vblank",
                longDelay("late", 3279),
                delay(2 + n),
                "rd:",
                "  lda $2007",
                "  jsr wait_vblank",
                "  lda #0",
                "  sta $2001",
                "  lda #$20",
                "  sta $2006",
                "  lda #0",
                "  sta $2006", // v moved away: the buffer is untouched by $2006
                "  lda $2007",
                "  sta $10",
                "  jmp pass");
    }

    /**
     * Runs {@code p} to its verdict; returns the line and the state machine's read dot
     * (line << 16 | dot), found from the PPU's described state just after the reading LDA: its
     * position plus the dots the state machine still waits ({@code dataReadIn}).
     */
    static int readDot(HardwareProgram p) {
        return readDot(p, null);
    }

    /** As {@link #readDot(HardwareProgram)}, copying the picture's line 8 into {@code line8} when given. */
    static int readDot(HardwareProgram p, short[] line8) {
        final Console c = p.console();
        final int rd = p.symbol("rd");
        while (c.cpu().pc() != rd) {
            c.runInstruction();
        }
        c.runInstruction();
        c.catchUp();
        final int line = c.ppu().scanline();
        int waits = -1;
        for (StateEntry e : Describer.describe(c.ppu())) {
            if (e.path().endsWith("dataReadIn")) {
                waits = (int) e.value();
            }
        }
        assertTrue(waits > 0, "the state machine waits after the read");
        final int dot = c.ppu().dot() + waits;
        if (line8 != null) {
            while (c.ppu().scanline() <= 8) {
                c.runInstruction();
                c.catchUp();
            }
            System.arraycopy(c.ppu().frame(), 8 * 256, line8, 0, 256);
        }
        assertEquals(HardwareProgram.PASS, p.run(6));
        return line << 16 | dot;
    }

    /** The byte the rendering fetch reading on even dot {@code e} of a rendering line reads. */
    static int fetchReadingOn(int e) {
        final int o = e - 1;
        if (o <= 255 || (o >= 321 && o <= 335)) {
            return switch (o & 7) {
                case 5 -> LOW;
                case 7 -> HIGH;
                default -> NT; // nametable and attribute
            };
        }
        if (o <= 319) {
            return switch ((o - 257) & 7) {
                case 4 -> EMPTY_LOW;
                case 6 -> EMPTY_HIGH;
                default -> NT; // the two nametable fetches
            };
        }
        return NT; // 337, 339
    }

    @Test
    void theBufferTakesTheByteOfTheFetchReadingOnTheStateMachinesReadDot() {
        final boolean[] seen = new boolean[341];
        final StringBuilder misses = new StringBuilder();
        for (int phase = 0; phase < PHASES; phase++) {
            for (int n = 0; n <= 114; n++) {
                final HardwareProgram p = HardwareProgram.of(program(NT, phase, n), chr());
                final int at = readDot(p);
                final int e = at & 0xFFFF;
                if (at >> 16 != 8 || e < 2 || e > 340 || (e & 1) != 0) {
                    continue; // an address (odd) dot: ALE and the read together
                }
                seen[e] = true;
                if (p.ram(0x10) != fetchReadingOn(e)) {
                    misses.append(" phase ").append(phase).append(" n=").append(n).append(" dot ").append(e)
                            .append(": $").append(Integer.toHexString(p.ram(0x10)));
                }
            }
        }
        for (int e = 4; e <= 340; e += 2) {
            assertTrue(seen[e], "a read on dot " + e);
        }
        assertEquals("", misses.toString());
    }
}
