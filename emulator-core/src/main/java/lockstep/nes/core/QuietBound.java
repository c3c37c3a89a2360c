package lockstep.nes.core;

import lockstep.nes.core.apu.Apu;

/**
 * Where quiet cycles end ({@link WholeInstructionBus}): a cycle is quiet when it ends before
 * the PPU's catch-up deadline and starts before the APU's next event, on a board that counts no
 * cycles. Every cycle adds one CPU divider to the master clock and one to the cycle count, so
 * both deadlines can be held as one master clock ({@link #before}), which {@link Console}
 * keeps until either deadline is set again; {@link #afresh} is the reference it is tested
 * against (QuietBoundTest).
 */
final class QuietBound {
    private QuietBound() {
    }

    /**
     * The master clock before which a cycle boundary is quiet, as the deadlines stand, or
     * Long.MIN_VALUE when none is: the coming cycle ends before the PPU's deadline
     * ({@code masterClock + cpuDivider} not due) and starts before the APU's next event
     * ({@code cycle + 1 < nextEventCycle}).
     */
    static long before(PpuCatchUp ppu, Apu apu, long cycle, long masterClock, int cpuDivider) {
        final long due = ppu.dueClock();
        final long cycles = apu.nextEventCycle() - 1 - cycle;
        if (due == Long.MIN_VALUE || cycles <= 0) {
            return Long.MIN_VALUE;
        }
        // Saturating, without a division: a far event (or a clock loaded near its end) is no bound.
        final long apuBound = cycles > 0xFFFF_FFFFL ? Long.MAX_VALUE : masterClock + cycles * cpuDivider;
        return Math.min(due - cpuDivider, apuBound < masterClock ? Long.MAX_VALUE : apuBound);
    }

    /** Whether the coming cycle is quiet, the deadlines read afresh (the reference of {@link #before}). */
    static boolean afresh(PpuCatchUp ppu, Apu apu, boolean boardCycles, long cycle, long masterClock, int cpuDivider) {
        return !ppu.isDue(masterClock + cpuDivider) && cycle + 1 < apu.nextEventCycle() && !boardCycles;
    }
}
