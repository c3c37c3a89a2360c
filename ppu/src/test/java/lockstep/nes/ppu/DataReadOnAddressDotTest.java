package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A $2007 state-machine read that lands on a fetch's address (odd) dot: the octal latch passes
 * the byte still on the lines (the previous fetch's) instead of the address's low byte. With
 * every nametable and attribute byte $FF and tile $FF blank but for its last byte ($0FFF, the
 * high plane of row 7, $FF), a read on a pattern-low address dot reads $0FFF: the buffer takes
 * $FF and so does the pattern-low fetch, which draws 8 opaque pixels.
 */
class DataReadOnAddressDotTest {
    private static final int COLOUR = 0x16;
    private static final int BACKDROP = 0x0F;

    private PpuDriver p;

    @BeforeEach
    void setUp() {
        p = new PpuDriver();
        final int[] mem = p.bus.mem;
        for (int a = 0x2000; a < 0x3000; a++) {
            mem[a] = 0xFF;
        }
        mem[0x0FFF] = 0xFF;
        p.runTo(261, 2);
        p.runTo(241, 10);
        for (int i = 0; i < 256; i++) {
            p.ppu.oam().write(i, 0xF0);
        }
        p.palette(0, BACKDROP);
        p.palette(0x0D, COLOUR);
        p.ppu.writeRegister(1, 0x0A);
        p.finishFrame();
    }

    @Test
    void aReadOnAPatternLowAddressDotReadsFromTheAttributeByte() {
        // Serviced after dot 96 of line 10: the state machine reads on 101, the address dot of
        // the pattern-low fetch of the tile fetched on 97-104 (shown at x 112-119).
        p.runTo(10, 96);
        p.ppu.readRegister(7);
        p.runTo(10, 101);
        assertEquals(0xFF, p.ppu.peekRegister(7), "the buffer: $0FFF");
        p.finishFrame();
        for (int x = 104; x < 128; x++) {
            final int expected = x >= 112 && x < 120 ? COLOUR : BACKDROP;
            assertEquals(expected, p.pixel(x, 10), "x " + x);
        }
    }

    @Test
    void aReadOnAReadDotLeavesTheFetchAlone() {
        p.runTo(10, 97);
        p.ppu.readRegister(7);
        p.finishFrame();
        for (int x = 0; x < 256; x++) {
            assertEquals(BACKDROP, p.pixel(x, 10), "x " + x);
        }
    }
}
