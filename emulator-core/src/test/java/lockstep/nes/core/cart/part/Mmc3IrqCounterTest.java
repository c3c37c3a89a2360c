package lockstep.nes.core.cart.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Mmc3IrqCounterTest {
    /** Clocks until the counter raises the IRQ; the clocks it took. */
    private static int clocksToFire(Mmc3IrqCounter c) {
        for (int n = 1; n <= 300; n++) {
            if (c.clock()) {
                return n;
            }
        }
        throw new AssertionError("no IRQ in 300 clocks");
    }

    @Test
    void theMmc3ClearsOnAReloadRequestAndReloadsTheLatch() {
        Mmc3IrqCounter c = new Mmc3IrqCounter(false);
        c.power();
        c.writeLatch(5);
        c.clock(); // 0 -> 5
        c.clock(); // 4
        c.requestReload();
        assertEquals(0, c.counter());
        assertEquals(6, c.clocksToIrq());
        assertEquals(6, clocksToFire(c)); // 5, 4, 3, 2, 1, 0
    }

    @Test
    void theRambo1ReloadsLatchPlusOneAndKeepsTheCounterUntilTheClock() {
        Mmc3IrqCounter c = Mmc3IrqCounter.rambo1();
        c.power();
        c.writeLatch(5);
        c.clock(); // 0 -> 5 (a counter at 0 loads the latch itself)
        c.clock(); // 4
        c.requestReload();
        assertEquals(4, c.counter());
        assertTrue(c.reloadPending());
        assertEquals(7, c.clocksToIrq());
        assertEquals(7, clocksToFire(c)); // 6, 5, 4, 3, 2, 1, 0
        assertFalse(c.reloadPending());
    }

    @Test
    void theRambo1sReloadOfLatchFfWrapsToZeroAndFiresAtOnce() {
        Mmc3IrqCounter c = Mmc3IrqCounter.rambo1();
        c.power();
        c.writeLatch(0xFF);
        c.requestReload();
        assertEquals(1, c.clocksToIrq());
        assertTrue(c.clock());
        assertEquals(0, c.counter());
    }
}
