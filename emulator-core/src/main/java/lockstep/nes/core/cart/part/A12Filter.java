package lockstep.nes.core.cart.part;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;

/**
 * PPU A12 seen through the MMC3's M2 filter (also on the RAMBO-1 and the TC0690): a rise counts
 * when A12 was low for {@link #LOW_CYCLES} M2 falling edges before it, so the short low pulses
 * between fetches of the same pattern table do not count. Edges are timed by the bus clock of
 * the dot they happen on ({@link Mapper.BusClock#time}), however late the PPU performs them.
 * Counts are the board's {@link Mapper#cyclesAt CPU cycles} plus an offset, so a state loaded
 * into a board with another clock keeps its count.
 */
public final class A12Filter {
    /** M2 falling edges A12 must stay low for before a rise counts. */
    public static final int LOW_CYCLES = 3;
    /**
     * The fewest PPU dots between two rises that both count: A12 high for a dot, then low across
     * 3 M2 edges (12 master clocks apart: at least 7 dots of 4), then the rise.
     */
    public static final int DOTS_BETWEEN_CLOCKS = 8;

    /**
     * A lower bound of the dots from now to the {@code clocks}-th counted rise (at least 1): the
     * first may come on the next dot, each further one {@link #DOTS_BETWEEN_CLOCKS} later.
     */
    public static int dotsToClock(int clocks) {
        return 1 + DOTS_BETWEEN_CLOCKS * (clocks - 1);
    }

    /** A12 as last seen: 0 or 0x1000 (the line the PPU's A12 watch compares with). */
    private final int[] line = new int[1];
    /** CPU cycles at a bus time + cycleOffset = the cycles counted since power-on. */
    private long cycleOffset;
    /** The count when A12 last went low (while {@link #fallPending}, not yet worked out). */
    private long lowAt;
    /**
     * True when A12 has gone low since {@link #lowAt} was last worked out: the fall's time is
     * {@link #fallTime}. Most rises come a few dots after the fall, too soon to count whatever
     * the phase of M2, and need no count at all. A cache of lowAt, not state.
     */
    @NotState("a12LowAt not yet worked out")
    private boolean fallPending;
    /** The bus time of the last fall while {@link #fallPending}. */
    @NotState("a12LowAt not yet worked out")
    private long fallTime;

    /** The one-element A12 level the PPU compares fetches with ({@code PpuBus.A12Watch}). */
    public int[] line() {
        return line;
    }

    /** A12 as last seen: 0 or 0x1000. */
    public int level() {
        return line[0];
    }

    /** True while A12 is high. */
    public boolean high() {
        return line[0] != 0;
    }

    /** Power on at {@code busCycles} CPU cycles: A12 low, the count from 0. */
    public void power(long busCycles) {
        line[0] = 0;
        cycleOffset = -busCycles;
        lowAt = 0;
        fallPending = false;
    }

    /**
     * A12 changes to {@code level} (0 or 0x1000, not the level last seen) at bus time {@code now}:
     * true for a rise that counts.
     */
    public boolean edge(int level, long now) {
        line[0] = level;
        if (level != 0) {
            return rise(now);
        }
        fallTime = now;
        fallPending = true;
        return false;
    }

    /**
     * A12 falls at bus time {@code fall} and rises {@code dots} dots (4 master clocks each) later,
     * ending high where it was: true when the rise counts.
     */
    public boolean dip(long fall, int dots) {
        fallTime = fall;
        fallPending = true;
        return rise(fall + 4L * dots);
    }

    private boolean rise(long now) {
        if (fallPending && now - fallTime <= Mapper.SHORT_CLOCKS) {
            return false; // fewer than LOW_CYCLES M2 edges since the fall
        }
        return Mapper.cyclesAt(now) + cycleOffset - lowAt() >= LOW_CYCLES;
    }

    /** The count when A12 last went low, worked out from the fall's time if that is pending. */
    public long lowAt() {
        if (fallPending) {
            lowAt = Mapper.cyclesAt(fallTime) + cycleOffset;
            fallPending = false;
        }
        return lowAt;
    }

    /** The CPU cycles counted since power-on, at {@code busCycles}. */
    public long cycles(long busCycles) {
        return busCycles + cycleOffset;
    }

    /** Visits "a12", "cycles" and "a12LowAt" (the count when A12 last went low). */
    public void state(StateVisitor s, long busCycles) {
        line[0] = s.bool("a12", line[0] != 0) ? 0x1000 : 0;
        final long now = busCycles + cycleOffset;
        final long low = lowAt(); // worked out with the offset it was timed with
        cycleOffset += s.i64("cycles", now, 0, Long.MAX_VALUE) - now;
        lowAt = s.i64("a12LowAt", low, 0, Long.MAX_VALUE);
    }
}
