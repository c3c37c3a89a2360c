package lockstep.nes.core.cart.taito;

import static lockstep.nes.core.cart.BoardAsserts.assertChrBanks;
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

class TaitoTc0690Test {
    private static Cartridge cart() {
        return Roms.cart(48, 256, 256);
    }

    /** A12 low for 3 CPU cycles, then a rise: one counter clock. */
    private static void scanline(Mapper m) {
        m.ppuRead(0x0000);
        cycles(m, 3);
        m.ppuRead(0x1000);
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0x8000, 0xC3); // bits 0-5
        m.cpuWrite(0x8001, 4);
        assertPrgBanks(m, 3, 4, 30, 31);
        m.cpuWrite(0x8002, 5); // 2 KiB units, low bit kept
        m.cpuWrite(0x8003, 8);
        for (int i = 0; i < 4; i++) {
            m.cpuWrite(0xA000 + i, 0x90 + i);
        }
        assertChrBanks(m, 10, 11, 16, 17);
        for (int i = 0; i < 4; i++) {
            assertEquals(0x90 + i, chrBank(m, 0x1000 + i * 0x400));
        }
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xE000, 0x40);
        assertEquals("0011", nametables(m));
        m.cpuWrite(0xE000, 0xBF);
        assertEquals("0101", nametables(m));
        m.cpuWrite(0x6000, 1);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
    }

    @Test
    void irqFourCyclesAfterTheClockWithAnInvertedLatch() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 0xFD); // latch 2
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xC002, 0);
        scanline(m); // reload: 2
        scanline(m); // 1
        scanline(m); // 0: IRQ 4 cycles on
        assertIrqAfter(m, 4);
        m.cpuWrite(0xC003, 0); // disable and acknowledge
        assertFalse(m.irq());
        m.cpuWrite(0xC002, 0);
        scanline(m); // reload 2
        scanline(m); // 1
        m.ppuRead(0x0000);
        cycles(m, 2);
        m.ppuRead(0x1000); // low for only 2 cycles: no clock
        cycles(m, 8);
        assertFalse(m.irq());
        scanline(m); // 0
        cycles(m, 4);
        assertTrue(m.irq());
    }

    @Test
    void disableCancelsAPendingIrq() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC000, 0xFF); // latch 0: every clock leaves 0
        m.cpuWrite(0xC002, 0);
        scanline(m);
        cycles(m, 2);
        m.cpuWrite(0xC003, 0);
        cycles(m, 4);
        assertFalse(m.irq());
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0x8001, 6);
        m.cpuWrite(0xA002, 0x44);
        m.cpuWrite(0xE000, 0x40);
        m.cpuWrite(0xC000, 0xFE); // latch 1
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xC002, 0);
        scanline(m); // 1
        m.ppuRead(0x0000);
        cycles(m, 1);
        Mapper copy = BoardSnapshots.copy(cart, m);
        for (Mapper b : new Mapper[] {m, copy}) {
            cycles(b, 2);
            b.ppuRead(0x1000); // low 3 cycles in all: 0
            assertIrqAfter(b, 4);
        }
        BoardSnapshots.assertSameView(m, copy);
        assertEquals(6, prgBank(copy, 0xA000));
        assertEquals(0x44, chrBank(copy, 0x1800));
        assertEquals("0011", nametables(copy));
    }
}
