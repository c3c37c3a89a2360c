package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/**
 * PPU A12 seen through the MMC3's M2 filter, for the MMC3-like RAMBO-1 and TC0690: a rise counts
 * when A12 was low for {@link Mmc3#A12_LOW_CYCLES} CPU cycles before it, timed by the dot it
 * happens on however late the PPU performs it. Times are the board's {@link Mapper#busCycles} plus an offset, so a state
 * loaded into a board with another clock keeps its count.
 */
final class A12Clock {
    /** A12 as last seen: 0 or 0x1000 (the line the PPU's A12 watch compares with). */
    final int[] line = new int[1];
    /** busCycles + cycleOffset = the CPU cycles counted since power-on. */
    private long cycleOffset;
    /** The count when A12 last went low. */
    private long lowAt;

    void power(long busCycles) {
        line[0] = 0;
        cycleOffset = -busCycles;
        lowAt = 0;
    }

    /** The PPU put {@code addr} on its bus at {@code busCycles}: true for a rise that counts. */
    boolean clocks(int addr, long busCycles) {
        final int level = addr & 0x1000;
        if (level == line[0]) {
            return false;
        }
        line[0] = level;
        final long now = busCycles + cycleOffset;
        if (level == 0) {
            lowAt = now;
            return false;
        }
        return now - lowAt >= Mmc3.A12_LOW_CYCLES;
    }

    void state(StateVisitor s, long busCycles) {
        line[0] = s.bool("a12", line[0] != 0) ? 0x1000 : 0;
        final long now = busCycles + cycleOffset;
        cycleOffset += s.i64("cycles", now, 0, Long.MAX_VALUE) - now;
        lowAt = s.i64("a12LowAt", lowAt, 0, Long.MAX_VALUE);
    }
}
