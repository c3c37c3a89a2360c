package lockstep.nes.core.cart.part;

import lockstep.nes.state.StateVisitor;

/**
 * The MMC3's scanline counter (also the TC0690's and the RAMBO-1's): an 8-bit down-counter
 * clocked by filtered A12 rises ({@link A12Filter}). A clock reloads it from the latch when it is
 * 0 or a reload was asked for ($C001), and else decrements it. Revision differences (blargg's
 * mmc3_test readme): the MMC3B (Sharp, "new") raises the IRQ whenever the counter is 0 after a
 * clock; the MMC3A (NEC, "old") and the MMC6 only when it became 0 by a decrement or a reload, so
 * a latch of 0 gives one IRQ, not one per clock. The RAMBO-1 (NESdev) counts as the MMC3B but a
 * requested reload loads latch + 1, and asking for one leaves the counter as it is. The IRQ
 * enable and the /IRQ line are the board's.
 */
public final class Mmc3IrqCounter {
    /** True for the MMC3A/MMC6 behaviour: a counter reloaded to 0 from 0 raises no IRQ. */
    private final boolean zeroByCountOnly;
    /** True for the RAMBO-1: a requested reload loads latch + 1 and does not clear the counter. */
    private final boolean reloadPlusOne;
    /** The pending reload's name in the described state (the RAMBO-1 has its own). */
    private final String reloadName;
    private int latch;
    private int counter;
    private boolean reload;

    /** @param zeroByCountOnly the MMC3A's and MMC6's rule (false: the MMC3B's) */
    public Mmc3IrqCounter(boolean zeroByCountOnly) {
        this(zeroByCountOnly, false, "irqReload");
    }

    private Mmc3IrqCounter(boolean zeroByCountOnly, boolean reloadPlusOne, String reloadName) {
        this.zeroByCountOnly = zeroByCountOnly;
        this.reloadPlusOne = reloadPlusOne;
        this.reloadName = reloadName;
    }

    /** The RAMBO-1's counter, its pending reload described as "reloadPending". */
    public static Mmc3IrqCounter rambo1() {
        return new Mmc3IrqCounter(false, true, "reloadPending");
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

    /** $C001: the counter is reloaded at the next clock (and cleared now, but on the RAMBO-1). */
    public void requestReload() {
        if (!reloadPlusOne) {
            counter = 0;
        }
        reload = true;
    }

    /** A filtered A12 rise: true when the counter raises the IRQ (if enabled). */
    public boolean clock() {
        final int before = counter;
        if (reload) {
            counter = reloaded();
        } else if (counter == 0) {
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
            final int next = reload ? reloaded() : latch;
            return next == 0 ? 1 : next + 1;
        }
        return counter;
    }

    /** The value a requested reload loads. */
    private int reloaded() {
        return reloadPlusOne ? (latch + 1) & 0xFF : latch;
    }

    public int counter() {
        return counter;
    }

    public boolean reloadPending() {
        return reload;
    }

    /** Visits "irqLatch", "irqCounter" and "irqReload" (the RAMBO-1's "reloadPending"). */
    public void state(StateVisitor s) {
        latch = s.u8("irqLatch", latch);
        counter = s.u8("irqCounter", counter);
        reload = s.bool(reloadName, reload);
    }
}
