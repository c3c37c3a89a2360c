package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.Roms.prgBank;
import static lockstep.nes.core.cart.nintendo.Mmc1Test.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

/** Mapper 105, NES-EVENT: the lock, the two 128 KiB halves and the counter's IRQ. */
class NesEventTest {
    private static Mapper board() {
        return Roms.mapper(Roms.cart(105, 256, 0));
    }

    @Test
    void theFirst32KiBStaysUntilTheCounterHasRunAndBeenHeld() {
        Mapper m = board();
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(3, prgBank(m, 0xE000));
        write(m, 0xA000, 0x14);                 // hold: still locked (it never ran)
        assertEquals(0, prgBank(m, 0x8000));
        write(m, 0xA000, 0x04);                 // run: bank 2 asked, still locked
        assertEquals(0, prgBank(m, 0x8000));
        write(m, 0xA000, 0x14);                 // held after running: unlocked, bank 2 of the lower half
        assertEquals(8, prgBank(m, 0x8000));    // 8 KiB units: 32 KiB bank 2 starts at 64 KiB
        assertEquals(11, prgBank(m, 0xE000));
        write(m, 0xA000, 0x1A);                 // bit 3: the upper half with MMC1 banking (mode 3 at power)
        write(m, 0xE000, 0x02);
        assertEquals(16 + 4, prgBank(m, 0x8000)); // 16 KiB bank 8 + 2
        assertEquals(30, prgBank(m, 0xC000));     // the last bank of the upper half
    }

    @Test
    void theCounterPullsIrqAfterItsCountAndHoldingReleasesIt() {
        Mapper m = board();
        write(m, 0xA000, 0x10);
        assertFalse(m.irq());
        write(m, 0xA000, 0x00);                 // run
        for (long i = 0; i < NesEvent.IRQ_COUNT - 2; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq(), "not before the count");
        m.cpuCycle();
        m.cpuCycle();
        assertTrue(m.irq());
        write(m, 0xA000, 0x10);                 // hold: the counter is cleared, /IRQ released
        assertFalse(m.irq());
        write(m, 0xA000, 0x00);                 // runs again from zero
        assertFalse(m.irq());
    }
}
