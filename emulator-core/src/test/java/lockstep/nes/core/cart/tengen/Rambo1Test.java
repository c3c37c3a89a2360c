package lockstep.nes.core.cart.tengen;

import static lockstep.nes.core.cart.BoardAsserts.assertIrqAfter;
import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.BoardAsserts.cycles;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Rambo1Test {
    private static Cartridge cart() {
        return Roms.cart(64, 256, 256);
    }

    private static void reg(Mapper m, int r, int value) {
        m.cpuWrite(0x8000, r);
        m.cpuWrite(0x8001, value);
    }

    /** A12 low for {@code low} CPU cycles, then a rise (one scanline's clock when low >= 3). */
    private static void scanline(Mapper m, int low) {
        m.ppuRead(0x0123);
        cycles(m, low);
        m.ppuRead(0x1123);
    }

    private static String chr(Mapper m) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            sb.append(i == 0 ? "" : " ").append(chrBank(m, i * 0x400));
        }
        return sb.toString();
    }

    @Test
    void prgBanksInBothArrangements() {
        Mapper m = Roms.mapper(cart());
        assertEquals(31, prgBank(m, 0xE000));
        reg(m, 6, 3);
        reg(m, 7, 4);
        reg(m, 15, 5);
        assertPrgBanks(m, 3, 4, 5, 31);
        m.cpuWrite(0x8000, 0x40);
        assertPrgBanks(m, 5, 3, 4, 31);
        m.cpuWrite(0x6000, 0x12); // no PRG-RAM
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
    }

    @Test
    void chrBanksInEveryMode() {
        Mapper m = Roms.mapper(cart());
        int[] values = {0x21, 0x31, 0x40, 0x41, 0x42, 0x43, 0, 0, 0x50, 0x60};
        for (int r = 0; r < 10; r++) {
            if (r != 6 && r != 7) {
                reg(m, r, values[r]);
            }
        }
        m.cpuWrite(0x8000, 0x00); // 2 KiB banks at $0000/$0800 (low bit ignored)
        assertEquals("32 33 48 49 64 65 66 67", chr(m));
        m.cpuWrite(0x8000, 0x20); // K: all 1 KiB, R8/R9 between
        assertEquals("33 80 49 96 64 65 66 67", chr(m));
        m.cpuWrite(0x8000, 0xA0); // K and C: halves swapped
        assertEquals("64 65 66 67 33 80 49 96", chr(m));
        m.cpuWrite(0x8000, 0x80);
        assertEquals("64 65 66 67 32 33 48 49", chr(m));
    }

    @Test
    void mirroring() {
        Mapper m = Roms.mapper(cart());
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xA000, 1);
        assertEquals("0011", nametables(m));
        m.cpuWrite(0xA001, 0); // odd: not the mirroring register
        assertEquals("0011", nametables(m));
        m.cpuWrite(0xBFFE, 0);
        assertEquals("0101", nametables(m));
    }

    @Test
    void scanlineIrqComesTwoCyclesAfterTheRise() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 2);
        m.cpuWrite(0xC001, 0); // scanline mode, reload on the next clock
        m.cpuWrite(0xE001, 0);
        scanline(m, 3); // reload: 3 (latch + 1)
        scanline(m, 3); // 2
        scanline(m, 2); // too short a low: no clock
        scanline(m, 3); // 1
        scanline(m, 3); // 0: IRQ on its way
        assertFalse(m.irq());
        assertIrqAfter(m, 2);
        scanline(m, 3); // reload 2 (counter was 0), the line stays
        assertTrue(m.irq());
        m.cpuWrite(0xE000, 0); // acknowledge and disable
        assertFalse(m.irq());
        scanline(m, 3); // 1
        scanline(m, 3); // 0, but disabled
        cycles(m, 4);
        assertFalse(m.irq());
        m.cpuWrite(0xE001, 0);
        scanline(m, 3); // reload 2
        scanline(m, 3); // 1
        scanline(m, 3); // 0
        cycles(m, 2);
        assertTrue(m.irq());
    }

    @Test
    void cycleModeIrqEveryFourCyclesAndOneLate() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 5);
        m.cpuWrite(0xC001, 1); // CPU-cycle mode, reload on the next clock
        m.cpuWrite(0xE001, 0);
        // Clocks every 4th cycle: 6 (latch + 1), 5, 4, 3, 2, 1, 0 at cycle 28; /IRQ one cycle later.
        for (int i = 1; i <= 28; i++) {
            m.cpuCycle();
            scanline(m, 0); // A12 rises do not clock in cycle mode
            assertFalse(m.irq(), "cycle " + i);
        }
        m.cpuCycle();
        assertTrue(m.irq());
        m.cpuWrite(0xE000, 0);
        assertFalse(m.irq());
    }

    @Test
    void disableCancelsAnIrqInItsDelay() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 0);
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xE001, 0);
        scanline(m, 3); // reload: latch 0 + 1 = 1
        scanline(m, 3); // 0
        cycles(m, 1);
        m.cpuWrite(0xE000, 0);
        cycles(m, 3);
        assertFalse(m.irq());
    }

    @Test
    void snapshotRoundTripKeepsTheCounterAndTheA12Filter() {
        Cartridge cart = cart();
        Mapper m = Roms.mapper(cart);
        reg(m, 6, 9);
        reg(m, 2, 0x77);
        m.cpuWrite(0x8000, 0xC0);
        m.cpuWrite(0xA000, 1);
        m.cpuWrite(0xC000, 1);
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xE001, 0);
        scanline(m, 3); // counter 2
        m.ppuRead(0x0000); // A12 low: the copy must remember when
        cycles(m, 2);
        Mapper copy = BoardSnapshots.copy(cart, m);
        // (Comparing the views first would read PPU addresses on both sides of A12.)
        for (Mapper b : new Mapper[] {m, copy}) {
            cycles(b, 1); // low for 3 cycles in all
            b.ppuRead(0x1000); // 1
            scanline(b, 3); // 0
            cycles(b, 1);
            assertFalse(b.irq());
            cycles(b, 1);
            assertTrue(b.irq(), b == m ? "original" : "copy");
        }
        BoardSnapshots.assertSameView(m, copy);
        assertEquals(9, prgBank(copy, 0xA000));
        assertEquals("0011", nametables(copy));
    }
}
