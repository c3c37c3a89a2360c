package lockstep.nes.ppu;

/** A 16 KiB flat PPU address space (no mirroring) that records the last addresses it saw. */
final class FakeBus implements PpuBus {
    final int[] mem = new int[0x4000];
    /** Every address read, in order (a ring of the last 4096). */
    final int[] reads = new int[4096];
    int readCount;
    int lastAddress = -1;

    @Override
    public int ppuRead(int addr) {
        reads[readCount++ & 4095] = addr;
        lastAddress = addr;
        return mem[addr & 0x3FFF];
    }

    @Override
    public void ppuWrite(int addr, int value) {
        lastAddress = addr;
        mem[addr & 0x3FFF] = value & 0xFF;
    }

    @Override
    public void ppuAddress(int addr) {
        lastAddress = addr;
    }
}
