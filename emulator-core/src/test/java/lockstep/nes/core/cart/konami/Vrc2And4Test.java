package lockstep.nes.core.cart.konami;

import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Vrc2And4Test {
    /** The CPU address offsets of register selects 0-3 for each wiring. */
    private static final int[] VRC4A = {0, 2, 4, 6};
    private static final int[] VRC4C = {0, 0x40, 0x80, 0xC0};
    private static final int[] VRC2A = {0, 2, 1, 3};
    private static final int[] VRC2B = {0, 1, 2, 3};
    private static final int[] VRC4E = {0, 4, 8, 12};
    private static final int[] VRC4B = {0, 2, 1, 3};
    private static final int[] VRC4D = {0, 8, 4, 12};

    private static Mapper vrc(int mapper, int submapper) {
        Cartridge.Builder b = Cartridge.builder("v.nes", Roms.prg(256), Roms.chr(256), mapper);
        if (submapper >= 0) {
            b.submapper(submapper);
        }
        return Roms.mapper(b.build());
    }

    private static void checkBanking(Mapper m, int[] a, boolean vrc2a) {
        m.cpuWrite(0x8000, 5);
        m.cpuWrite(0xA000 + a[0], 9);
        assertEquals(5, prgBank(m, 0x8000));
        assertEquals(9, prgBank(m, 0xA000));
        assertEquals(30, prgBank(m, 0xC000));
        assertEquals(31, prgBank(m, 0xE000));
        for (int bank = 0; bank < 8; bank++) {
            int base = 0xB000 + (bank >> 1) * 0x1000;
            int lo = (bank & 1) * 2;
            int value = 0x20 + bank * 3;
            m.cpuWrite(base + a[lo], value & 0x0F);
            m.cpuWrite(base + a[lo + 1], value >> 4);
            assertEquals(vrc2a ? value >> 1 : value, chrBank(m, bank * 0x400), "CHR bank " + bank);
        }
        m.cpuWrite(0x9000, 1);
        assertEquals("0011", nametables(m));
        m.cpuWrite(0x9000, 0);
        assertEquals("0101", nametables(m));
    }

    @Test
    void everyWiringBanks() {
        checkBanking(vrc(21, 1), VRC4A, false);
        checkBanking(vrc(21, 2), VRC4C, false);
        checkBanking(vrc(21, -1), VRC4A, false);
        checkBanking(vrc(21, -1), VRC4C, false);
        checkBanking(vrc(22, -1), VRC2A, true);
        checkBanking(vrc(23, 3), VRC2B, false);
        checkBanking(vrc(23, 2), VRC4E, false);
        checkBanking(vrc(23, -1), VRC2B, false);
        checkBanking(vrc(23, -1), VRC4E, false);
        checkBanking(vrc(25, 1), VRC4B, false);
        checkBanking(vrc(25, 2), VRC4D, false);
        checkBanking(vrc(25, -1), VRC4B, false);
        checkBanking(vrc(25, -1), VRC4D, false);
    }

    @Test
    void vrc4SwapModeAndOneScreen() {
        Mapper m = vrc(21, 1);
        m.cpuWrite(0x8000, 5);
        m.cpuWrite(0x9004, 2); // select 2: PRG swap mode
        assertEquals(30, prgBank(m, 0x8000));
        assertEquals(5, prgBank(m, 0xC000));
        m.cpuWrite(0x9000, 3);
        assertEquals("1111", nametables(m));
    }

    @Test
    void vrc4IrqCycleAndScanlineModes() {
        Mapper m = vrc(21, 1);
        m.cpuWrite(0xF000, 0x0D); // latch $FD
        m.cpuWrite(0xF002, 0x0F);
        m.cpuWrite(0xF004, 0x06); // enable, cycle mode: counter = latch
        m.cpuCycle(); // FE
        m.cpuCycle(); // FF
        assertFalse(m.irq());
        m.cpuCycle(); // overflow -> IRQ, counter reloaded
        assertTrue(m.irq());
        m.cpuWrite(0xF006, 0); // acknowledge: enable <- E bit (0)
        assertFalse(m.irq());
        for (int i = 0; i < 10; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq());
        // Scanline mode: one count per 341/3 CPU cycles.
        m.cpuWrite(0xF000, 0x0F); // latch $FF: next count overflows
        m.cpuWrite(0xF004, 0x02);
        for (int i = 0; i < 113; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq());
        m.cpuCycle(); // 114th cycle: the prescaler has passed 341 dots
        assertTrue(m.irq());
    }

    @Test
    void vrc2HasNoIrq() {
        Mapper m = vrc(22, -1);
        m.cpuWrite(0xF000, 0x0F);
        m.cpuWrite(0xF001, 0x0F);
        m.cpuWrite(0xF002, 0x06);
        for (int i = 0; i < 1000; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq());
    }
}
