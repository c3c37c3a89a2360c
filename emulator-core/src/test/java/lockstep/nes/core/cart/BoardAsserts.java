package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A board driven by hand in a test: its CPU cycles, and what its banks and /IRQ show. */
public final class BoardAsserts {
    private BoardAsserts() {
    }

    /** {@code n} CPU cycles ({@link Mapper#cpuCycle} calls). */
    public static void cycles(Mapper m, int n) {
        for (int i = 0; i < n; i++) {
            m.cpuCycle();
        }
    }

    /** /IRQ stays high for {@code n - 1} more CPU cycles and goes low at the {@code n}-th. */
    public static void assertIrqAfter(Mapper m, int n) {
        cycles(m, n - 1);
        assertFalse(m.irq(), "IRQ before cycle " + n);
        cycles(m, 1);
        assertTrue(m.irq(), "no IRQ at cycle " + n);
    }

    /** The 8 KiB PRG banks mapped at $8000, $A000, ... (as many as given). */
    public static void assertPrgBanks(Mapper m, int... banks) {
        for (int i = 0; i < banks.length; i++) {
            assertEquals(banks[i], Roms.prgBank(m, 0x8000 + 0x2000 * i), "PRG bank at $" + Integer.toHexString(0x8000 + 0x2000 * i));
        }
    }

    /** The 1 KiB CHR banks mapped at $0000, $0400, ... (as many as given). */
    public static void assertChrBanks(Mapper m, int... banks) {
        for (int i = 0; i < banks.length; i++) {
            assertEquals(banks[i], Roms.chrBank(m, 0x400 * i), "CHR bank at $" + Integer.toHexString(0x400 * i));
        }
    }
}
