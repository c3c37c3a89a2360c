package lockstep.nes.core.cart.fds;

import lockstep.nes.state.StateVisitor;

/**
 * The RAM adapter's timer IRQ (NESdev "Family Computer Disk System", $4020-$4022): a 16-bit
 * counter that, while enabled, counts down once per CPU cycle; a cycle that finds it at 0 raises
 * the IRQ and reloads it, and ends the count unless the repeat flag is set. So the IRQ comes
 * reload + 1 cycles after the write that enables it, and every reload + 1 cycles after that.
 * <pre>
 *  $4020/$4021  reload value, low / high byte
 *  $4022        .... ..ER  R repeat, E enabled: a write with E copies the reload value to the
 *                          counter; a write without E stops the count and acknowledges the IRQ
 * </pre>
 * Only while $4023 bit 0 (disk registers enabled) is set can the count be enabled; clearing it
 * stops the count and acknowledges the IRQ. Reading $4030 acknowledges the IRQ.
 */
final class FdsTimer {
    private int reload;
    private int counter;
    private boolean repeat;
    private boolean enabled;
    private boolean irq;

    void power() {
        reload = 0;
        counter = 0;
        repeat = false;
        enabled = false;
        irq = false;
    }

    void writeReloadLow(int value) {
        reload = (reload & 0xFF00) | (value & 0xFF);
    }

    void writeReloadHigh(int value) {
        reload = (reload & 0x00FF) | ((value & 0xFF) << 8);
    }

    /** $4022; {@code ioEnabled} is $4023 bit 0. */
    void writeControl(int value, boolean ioEnabled) {
        repeat = (value & 1) != 0;
        enabled = (value & 2) != 0 && ioEnabled;
        if (enabled) {
            counter = reload;
        } else {
            irq = false;
        }
    }

    /** $4023 bit 0 cleared: the count stops and the IRQ is acknowledged. */
    void disable() {
        enabled = false;
        irq = false;
    }

    void acknowledge() {
        irq = false;
    }

    /** One CPU cycle. */
    void clock() {
        if (!enabled) {
            return;
        }
        if (counter == 0) {
            irq = true;
            counter = reload;
            if (!repeat) {
                enabled = false;
            }
        } else {
            counter--;
        }
    }

    boolean irq() {
        return irq;
    }

    void state(StateVisitor s) {
        reload = s.u16("timer.reload", reload);
        counter = s.u16("timer.counter", counter);
        repeat = s.bool("timer.repeat", repeat);
        enabled = s.bool("timer.enabled", enabled);
        irq = s.bool("timer.irq", irq);
    }
}
