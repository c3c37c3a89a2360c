package lockstep.nes.core.cart.part;

import lockstep.nes.state.StateVisitor;

/**
 * The MMC3's scanline counter (also the TC0690's): an 8-bit down-counter clocked by filtered A12
 * rises ({@link A12Filter}). A clock reloads it from the latch when it is 0 or a reload was
 * asked for ($C001), and else decrements it. Revision differences (blargg's mmc3_test readme):
 * the MMC3B (Sharp, "new") raises the IRQ whenever the counter is 0 after a clock; the MMC3A
 * (NEC, "old") and the MMC6 only when it became 0 by a decrement or a reload, so a latch of 0
 * gives one IRQ, not one per clock. The IRQ enable and the /IRQ line are the board's.
 */
public final class Mmc3IrqCounter {
    /** True for the MMC3A/MMC6 behaviour: a counter reloaded to 0 from 0 raises no IRQ. */
    private final boolean zeroByCountOnly;
    private int latch;
    private int counter;
    private boolean reload;

    /** @param zeroByCountOnly the MMC3A's and MMC6's rule (false: the MMC3B's) */
    public Mmc3IrqCounter(boolean zeroByCountOnly) {
        this.zeroByCountOnly = zeroByCountOnly;
    }

    public void power() {
        latch = 0;
        counter = 0;
        reload = false;
    }

    /** $C000: the reload value. */
    public void writeLatch(int value) {
        latch = value;
    }

    /** $C001: the counter is cleared and reloaded at the next clock. */
    public void requestReload() {
        counter = 0;
        reload = true;
    }

    /** A filtered A12 rise: true when the counter raises the IRQ (if enabled). */
    public boolean clock() {
        final int before = counter;
        if (counter == 0 || reload) {
            counter = latch;
        } else {
            counter--;
        }
        final boolean fire = counter == 0 && (!zeroByCountOnly || before != 0 || reload);
        reload = false;
        return fire;
    }

    /**
     * A lower bound (at least 1) of the clocks before one that can raise the IRQ: the counter
     * must run down to 0, or be reloaded first when it is 0 or a reload is pending.
     */
    public int clocksToIrq() {
        if (reload || counter == 0) {
            return latch == 0 ? 1 : latch + 1;
        }
        return counter;
    }

    public int counter() {
        return counter;
    }

    public boolean reloadPending() {
        return reload;
    }

    /** Visits "irqLatch", "irqCounter" and "irqReload". */
    public void state(StateVisitor s) {
        latch = s.u8("irqLatch", latch);
        counter = s.u8("irqCounter", counter);
        reload = s.bool("irqReload", reload);
    }
}
