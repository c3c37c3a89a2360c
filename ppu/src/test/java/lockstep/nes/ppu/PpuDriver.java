package lockstep.nes.ppu;

/** A PPU on a {@link FakeBus}, stepped dot by dot to given positions, for tests of its units. */
final class PpuDriver {
    final FakeBus bus = new FakeBus();
    final Ppu ppu = new Ppu(bus);

    PpuDriver() {
        ppu.power();
    }

    /** Steps until the PPU has just executed (scanline, dot). */
    void runTo(int scanline, int dot) {
        int guard = 0;
        do {
            ppu.step();
            if (++guard > 200_000) {
                throw new AssertionError("never reached " + scanline + "," + dot);
            }
        } while (ppu.scanline() != scanline || ppu.dot() != dot);
    }

    /** Writes $2006 twice and waits the 3 dots v takes to follow. */
    void setAddress(int addr) {
        ppu.writeRegister(6, addr >> 8);
        ppu.writeRegister(6, addr & 0xFF);
        ppu.step();
        ppu.step();
        ppu.step();
    }

    /** In vblank: palette entry {@code index} = {@code colour}, then v = 0. */
    void palette(int index, int colour) {
        setAddress(0x3F00 | index);
        ppu.writeRegister(7, colour);
        setAddress(0);
    }

    /** Runs to the vblank after the next frame's picture. */
    void finishFrame() {
        long n = ppu.frameCount();
        while (ppu.frameCount() == n) {
            ppu.step();
        }
    }

    int pixel(int x, int y) {
        return ppu.frame()[y * 256 + x];
    }
}
