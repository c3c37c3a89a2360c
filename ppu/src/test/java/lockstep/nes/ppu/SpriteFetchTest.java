package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pre-render line evaluates no sprites: its sprite fetches take what secondary OAM still
 * holds, and line 0 shows those the pre-render line's Y comparison finds in range. An opaque
 * sprite 0 over an opaque background: at Y $EF (left by line 239) it is out of range there;
 * at Y 2, left by line 4 when rendering is off from line 5 to vertical blank, it is in range
 * and hits on line 0.
 */
class SpriteFetchTest {

    private static void runTo(Ppu ppu, int line, int dot) {
        do {
            ppu.step();
        } while (ppu.scanline() != line || ppu.dot() != dot);
    }

    @ParameterizedTest
    @CsvSource({"239, false, false", "2, false, false", "2, true, true", "240, true, false"})
    void lineZeroShowsTheStaleSpritesInRangeOfThePreRenderLine(int y, boolean offFromLine5, boolean hitOnLineZero) {
        FakeBus bus = new FakeBus();
        for (int i = 0x10; i < 0x20; i++) {
            bus.mem[i] = 0xFF; // tile 1 opaque
        }
        for (int i = 0x2000; i < 0x23C0; i++) {
            bus.mem[i] = 1;
        }
        Ppu ppu = new Ppu(bus);
        ppu.power();
        for (int i = 0; i < 256; i++) {
            ppu.oam().write(i, 0xF8);
        }
        ppu.oam().write(0, y);
        ppu.oam().write(1, 1);
        ppu.oam().write(2, 0);
        ppu.oam().write(3, 0x80);
        runTo(ppu, 241, 10);
        ppu.writeRegister(1, 0x1E);
        if (offFromLine5) {
            runTo(ppu, 5, 150);
            ppu.writeRegister(1, 0);
        }
        runTo(ppu, 241, 10);
        ppu.writeRegister(1, 0x1E);
        runTo(ppu, 0, 200);
        assertEquals(hitOnLineZero, (ppu.peekRegister(2) & 0x40) != 0, "hit on line 0");
    }
}
