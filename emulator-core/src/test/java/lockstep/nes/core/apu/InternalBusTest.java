package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.Console;
import org.junit.jupiter.api.Test;

/** The CPU's internal data bus as $4015 reads leave it, and $4015's bit 5 read back from it. */
class InternalBusTest {
    @Test
    void aStatusReadDrivesTheInternalBusForTheNextCycleOnly() {
        InternalBus bus = new InternalBus();
        bus.power();
        assertEquals(0x40, bus.read(0, 0x40), "no status read yet: the external bus");
        bus.drive(10, 0x1F5);
        assertEquals(0xF5, bus.read(11, 0x40), "the cycle after the read: its value, not the external bus");
        assertEquals(0x40, bus.read(12, 0x40), "any access since drove both buses");
        assertEquals(0x40, bus.read(10, 0x40), "the read's own cycle: the bus before it");
    }

    @Test
    void bit5OfAStatusReadComesFromTheInternalBus() {
        Console c = TestCarts.nopConsole();
        Apu apu = c.apu();
        c.runCycle();
        assertEquals(0x20, apu.read(0x4015, 0x20) & 0x20, "after an external access: the external bus's bit 5");
        c.runCycle();
        assertEquals(0x20, apu.read(0x4015, 0x00) & 0x20, "right after a status read: that read's bit 5");
        assertEquals(0x20, apu.peek(0x4015, 0x00) & 0x20, "a read on the next cycle would see the same");
        c.runCycle();
        c.runCycle();
        assertEquals(0, apu.read(0x4015, 0x00) & 0x20, "two cycles later: the external bus again");
    }
}
