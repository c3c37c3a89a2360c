package lockstep.nes.core.cart.part;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DelayedIrqTest {
    private static DelayedIrq enabled() {
        DelayedIrq irq = new DelayedIrq();
        irq.power();
        irq.enable();
        return irq;
    }

    @Test
    void lineAssertsAfterTheDelayAndStaysUntilDisabled() {
        DelayedIrq irq = enabled();
        irq.start(3);
        assertTrue(irq.blocked(), "an IRQ on its way blocks another");
        irq.cpuCycle();
        irq.cpuCycle();
        assertFalse(irq.line());
        irq.cpuCycle();
        assertTrue(irq.line());
        irq.cpuCycle();
        assertTrue(irq.line());
        irq.disable();
        assertFalse(irq.line());
        assertTrue(irq.blocked(), "disabled");
    }

    @Test
    void noStartWhileDisabledRaisedOrOnItsWay() {
        DelayedIrq irq = new DelayedIrq();
        irq.power();
        irq.start(1);
        irq.cpuCycle();
        assertFalse(irq.line(), "disabled: no IRQ");

        irq = enabled();
        irq.start(2);
        irq.cpuCycle();
        irq.start(5); // on its way: the delay is not restarted
        irq.cpuCycle();
        assertTrue(irq.line());
    }

    @Test
    void disableCancelsAnIrqOnItsWay() {
        DelayedIrq irq = enabled();
        irq.start(2);
        irq.cpuCycle();
        irq.disable();
        irq.enable();
        irq.cpuCycle();
        irq.cpuCycle();
        assertFalse(irq.line());
        assertFalse(irq.blocked());
    }
}
