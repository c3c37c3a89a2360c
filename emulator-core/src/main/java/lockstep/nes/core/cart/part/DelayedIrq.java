package lockstep.nes.core.cart.part;

import lockstep.nes.state.StateVisitor;

/**
 * The /IRQ output of a scanline counter that asserts /IRQ some CPU cycles after the clock that
 * hit 0 (RAMBO-1, TC0690): the enable bit, the cycles left before /IRQ, and the line. A clock
 * that hits 0 starts an IRQ only while enabled and while none is raised or on its way; disabling
 * acknowledges the IRQ and cancels one on its way.
 */
public final class DelayedIrq {
    private boolean enabled;
    /** {@link #cpuCycle} calls left before /IRQ asserts (0: none pending). */
    private int delay;
    private boolean line;

    public void power() {
        enabled = false;
        delay = 0;
        line = false;
    }

    public void enable() {
        enabled = true;
    }

    /** Disables IRQs, acknowledges a raised one and cancels one on its way. */
    public void disable() {
        enabled = false;
        delay = 0;
        line = false;
    }

    /** The counter hit 0: /IRQ asserts after {@code cycles} {@link #cpuCycle} calls, if it may start. */
    public void start(int cycles) {
        if (enabled && !line && delay == 0) {
            delay = cycles;
        }
    }

    /** A CPU cycle: counts the delay down and asserts /IRQ at its end. */
    public void cpuCycle() {
        if (delay != 0 && --delay == 0) {
            line = true;
        }
    }

    /** True while /IRQ is low. */
    public boolean line() {
        return line;
    }

    /** True when no IRQ can start now: disabled, or one raised or on its way. */
    public boolean blocked() {
        return !enabled || line || delay != 0;
    }

    /** Visits "irqEnabled", "irqDelay" and "irqLine". */
    public void state(StateVisitor s) {
        enabled = s.bool("irqEnabled", enabled);
        delay = s.u8("irqDelay", delay);
        line = s.bool("irqLine", line);
    }
}
