package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * The APU's frame counter ($4017): a divider that clocks the envelopes and the triangle's linear
 * counter (quarter frames) and the length counters and sweeps (half frames) at fixed CPU-cycle
 * positions, in a 4-step or a 5-step sequence, and sets the frame IRQ flag at the end of the 4-step
 * sequence.
 *
 * <p>The flag and its /IRQ output (NESdev "APU Frame Counter", "APU" status; the 2A03 as
 * measured by cycle-timed test programs): the last three cycles of the 4-step sequence (29828,
 * 29829, 29830 after the reset) set the flag; the first two set it even while IRQs are
 * inhibited, and the third leaves it set only when they are not, so an inhibited counter shows
 * the flag in $4015 for two cycles and never pulls /IRQ low (/IRQ is the flag AND NOT inhibit).
 * A $4015 read does not clear the flag at once: the clear takes effect as the APU turns from a
 * put to a get cycle, one or two cycles after the read, before that cycle's step, so a step on
 * the same cycle sets it again. The counter's put-to-get steps are those that bring its cycle
 * count to an even value (the steps setting the flag at 29828 and 29830 are two of them): a
 * read on the cycle before the first setting cycle or on the first two leaves the flag set (a
 * setting step follows its clear); a read on the third clears it two cycles later.
 * (docs/design/cpu.md, "The frame IRQ flag, $4015 reads and the two data buses".) Writing $4017 with bit 6 set clears the flag at once.
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
    /** A $4015 read is waiting for the next put-to-get step to clear {@link #frameIrq}. */
    private boolean clearPending;
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
        clearPending = false;
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
        ++fcCycle;
        if (clearPending && (fcCycle & 1) == 0) {
            // A put-to-get step: the read's clear lands before this step's own setting.
            clearPending = false;
            frameIrq = false;
            result = CHANGED;
        }
        if (fcCycle >= steps[fcMode][fcStep]) {
            result = CHANGED;
            if (fcMode == 0 && fcStep >= 3) {
                // 29828 and 29829 set the flag whatever the inhibit; 29830 keeps it only if not inhibited.
                frameIrq = fcStep < 5 || !irqInhibit;
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
            clearPending = false;
        }
    }

    /** The frame counter's /IRQ output: the flag while IRQs are not inhibited. */
    boolean irq() {
        return frameIrq && !irqInhibit;
    }

    /** The frame IRQ flag ($4015 bit 6). */
    boolean flag() {
        return frameIrq;
    }

    /** A read of $4015: the flag clears at the next put-to-get step (see the class comment). */
    void acknowledge() {
        if (frameIrq) {
            clearPending = true;
        }
    }

    /**
     * True when the coming cycles until the next step only count ({@link #skip}): no $4017 write
     * pending, no clock blocking, no clear pending, and the position in range.
     */
    boolean quiet() {
        return fcPending < 0 && fcBlock == 0 && !clearPending && (fcMode & ~1) == 0 && fcStep >= 0 && fcStep < 6;
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
        return (fcCycle & 0xFFFFFFFFL) << 27;
    }

    /** The first packed word of the APU's digest term (the APU weights it by W0). */
    long word0() {
        return ((fcCycle & 0xFFFFFFFFL) << 27)
            | ((fcStep & 0xFFL) << 19)
            | ((fcMode & 0xFFL) << 11)
            | (DigestKeys.b(irqInhibit) << 10)
            | (DigestKeys.b(frameIrq) << 9)
            | (DigestKeys.b(clearPending) << 8)
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
        clearPending = s.bool("clearPending", clearPending);
        fcBlock = s.u8("fcBlock", fcBlock, 2);
        fcPending = s.i32("fcPending", fcPending, -1, 0xFF);
        fcDelay = s.i32("fcDelay", fcDelay, 0, 4);
    }
}
