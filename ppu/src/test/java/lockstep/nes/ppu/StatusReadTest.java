package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StatusReadTest {
    /** A frame with a sprite 0 hit (sprite 0 over a solid background tile) and vblank set. */
    private static PpuDriver frameWithHit() {
        PpuDriver p = new PpuDriver();
        for (int i = 0; i < 16; i++) {
            p.bus.mem[0x0010 + i] = 0xFF;
        }
        p.bus.mem[0x2000 + 4 * 32 + 4] = 1;
        p.runTo(261, 2);
        p.runTo(241, 10);
        for (int i = 0; i < 256; i++) {
            p.ppu.oam().write(i, 0xF0);
        }
        p.ppu.oam().write(0, 31);
        p.ppu.oam().write(1, 1);
        p.ppu.oam().write(3, 36);
        p.setAddress(0);
        p.ppu.writeRegister(1, 0x1E);
        p.finishFrame();
        return p;
    }

    @Test
    void spriteFlagsReadOneDotLaterThanVblank() {
        PpuDriver p = frameWithHit();
        p.runTo(260, 340);
        assertEquals(0xC0, p.ppu.peekRegister(2) & 0xE0);
        p.ppu.step(); // 261, 0: vblank latched set, the sprite flags sampled after their clear
        assertEquals(0x80, p.ppu.peekRegister(2) & 0xE0);
        assertEquals(0x80, p.ppu.readRegister(2) & 0xE0);
        p.ppu.step();
        assertEquals(0x00, p.ppu.peekRegister(2) & 0xE0);
    }

    @Test
    void aReadBeforeTheClearDotSeesTheFlags() {
        PpuDriver p = frameWithHit();
        p.runTo(260, 339);
        assertEquals(0xC0, p.ppu.readRegister(2) & 0xE0);
        p.ppu.step();
        assertEquals(0x40, p.ppu.readRegister(2) & 0xE0, "vblank cleared by the read");
    }
}
