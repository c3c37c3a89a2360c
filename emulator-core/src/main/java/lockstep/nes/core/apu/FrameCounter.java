package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * The APU's frame counter ($4017): a divider that clocks the envelopes and the triangle's linear
 * counter (quarter frames) and the length counters and sweeps (half frames) at fixed CPU-cycle
 * positions, in a 4-step or a 5-step sequence, and raises the frame IRQ at the end of the 4-step
 * sequence unless inhibited.
 *
 * <p>Its fields are described inside the APU's section (not a section of their own), first,
 * through {@link #visit}; the APU packs them into its digest term through {@link #word0} and
 * {@link #word1}.
 */
final class FrameCounter {
    /** Step positions in CPU cycles after the (delayed) $4017 write ({@link ApuPeriods}). Fixed wiring. */
    @NotState("the region's step table: fixed wiring")
    private final int[][] steps;

    /** {@link #step}'s result: nothing changed. */
    static final int UNCHANGED = 0;
    /** {@link #step}'s result: the counter's state changed, no units clocked. */
    static final int CHANGED = 1;
    /** {@link #step}'s result: a quarter-frame clock (the state changed). */
    static final int QUARTER = 2;
    /** {@link #step}'s result: a quarter- and half-frame clock (the state changed). */
    static final int HALF = 3;
    /** What each step clocks (the same in both modes). */
    private static final int[] STEP_TYPE = {QUARTER, HALF, QUARTER, CHANGED, HALF, CHANGED};

    FrameCounter(Region region) {
        steps = ApuPeriods.frameSteps(region);
    }

    private int fcCycle;
    private int fcStep;
    /** 0: 4-step mode, 1: 5-step mode. */
    private int fcMode;
    private boolean irqInhibit;
    private boolean frameIrq;
    /** Cycles left during which a $4017 write cannot clock the units again. */
    private int fcBlock;
    /** The value written to $4017 waiting to take effect, or -1. */
    private int fcPending;
    private int fcDelay;

    /** Power-on: 4-step mode, flag clear, restarted as by {@link #reset}. */
    void power() {
        fcMode = 0;
        reset();
    }

    /** Reset: the flag cleared, and the counter restarts in its mode. */
    void reset() {
        frameIrq = false;
        // As if $4017 were written (with its current mode) just before the reset sequence.
        fcCycle = 0;
        fcStep = 0;
        fcPending = fcMode == 1 ? 0x80 : 0x00;
        fcDelay = 3;
        irqInhibit = false;
        fcBlock = 0;
    }

    /**
     * One CPU cycle. Returns {@link #UNCHANGED}, {@link #CHANGED}, or the clock the units get
     * this cycle ({@link #QUARTER} or {@link #HALF}, at most one per cycle: a clock blocks the
     * next two cycles' clocks).
     */
    int step() {
        int result = UNCHANGED;
        if (++fcCycle >= steps[fcMode][fcStep]) {
            result = CHANGED;
            if (fcMode == 0 && fcStep >= 3 && !irqInhibit) {
                frameIrq = true;
            }
            int type = STEP_TYPE[fcStep];
            if (type != CHANGED && fcBlock == 0) {
                result = type;
                fcBlock = 2;
            }
            if (++fcStep == 6) {
                fcStep = 0;
                fcCycle = 0;
            }
        }
        if (fcPending >= 0) {
            if (result == UNCHANGED) {
                result = CHANGED;
            }
            if (--fcDelay == 0) {
                fcMode = (fcPending & 0x80) != 0 ? 1 : 0;
                fcPending = -1;
                fcDelay = 0;
                fcStep = 0;
                fcCycle = 0;
                // Entering 5-step mode clocks all units at once (unless a step just did).
                if (fcMode == 1 && fcBlock == 0) {
                    result = HALF;
                    fcBlock = 2;
                }
            }
        }
        if (fcBlock > 0) {
            if (result == UNCHANGED) {
                result = CHANGED;
            }
            fcBlock--;
        }
        return result;
    }

    /** A CPU write to $4017, on an odd CPU cycle or not. */
    void write(int value, boolean oddCycle) {
        fcPending = value;
        // The new mode takes effect 3 CPU cycles after a write on an even cycle, 4 after an odd one.
        fcDelay = oddCycle ? 4 : 3;
        irqInhibit = (value & 0x40) != 0;
        if (irqInhibit) {
            frameIrq = false;
        }
    }

    /** The frame IRQ flag (pulls /IRQ low while set). */
    boolean irq() {
        return frameIrq;
    }

    /** Clears the frame IRQ flag (a read of $4015). */
    void acknowledge() {
        frameIrq = false;
    }

    /**
     * True when the coming cycles until the next step only count ({@link #skip}): no $4017 write
     * pending, no clock blocking, and the position in range.
     */
    boolean quiet() {
        return fcPending < 0 && fcBlock == 0 && (fcMode & ~1) == 0 && fcStep >= 0 && fcStep < 6;
    }

    /** Cycles until the next step (at least 1); only when {@link #quiet}. */
    long cyclesToStep() {
        return Math.max(1L, (long) steps[fcMode][fcStep] - fcCycle);
    }

    /** {@code n} cycles of {@link #step} in which no step comes (see {@link #cyclesToStep}). */
    void skip(int n) {
        fcCycle += n;
    }

    /** The part of {@link #word0} that changes every cycle. */
    long hotWord0() {
        return (fcCycle & 0xFFFFFFFFL) << 26;
    }

    /** The first packed word of the APU's digest term (the APU weights it by W0). */
    long word0() {
        return ((fcCycle & 0xFFFFFFFFL) << 26)
            | ((fcStep & 0xFFL) << 18)
            | ((fcMode & 0xFFL) << 10)
            | (DigestKeys.b(irqInhibit) << 9)
            | (DigestKeys.b(frameIrq) << 8)
            | (fcBlock & 0xFFL);
    }

    /** The second packed word of the APU's digest term (the APU weights it by W1). */
    long word1() {
        return ((fcPending & 0xFFFFFFFFL) << 32)
            | (fcDelay & 0xFFFFFFFFL);
    }

    /** The described fields, in order: the first entries of the APU's section. */
    void visit(StateVisitor s) {
        fcCycle = s.i32("fcCycle", fcCycle, 0, 37281);
        fcStep = s.u8("fcStep", fcStep, 5);
        fcMode = s.u8("fcMode", fcMode, 1);
        irqInhibit = s.bool("irqInhibit", irqInhibit);
        frameIrq = s.bool("frameIrq", frameIrq);
        fcBlock = s.u8("fcBlock", fcBlock, 2);
        fcPending = s.i32("fcPending", fcPending, -1, 0xFF);
        fcDelay = s.i32("fcDelay", fcDelay, 0, 4);
    }
}
