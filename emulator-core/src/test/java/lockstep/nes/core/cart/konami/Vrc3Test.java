package lockstep.nes.core.cart.konami;

import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Vrc3Test {
    private static Cartridge cart(Mirroring mirroring) {
        return Cartridge.builder("vrc3.nes", Roms.prg(128), new byte[0], 73).mirroring(mirroring).build();
    }

    private static void cycles(Mapper m, int n) {
        for (int i = 0; i < n; i++) {
            m.cpuCycle();
        }
    }

    private static void latch(Mapper m, int value) {
        m.cpuWrite(0x8000, value & 0xF);
        m.cpuWrite(0x9FFF, (value >> 4) & 0xF);
        m.cpuWrite(0xA123, (value >> 8) & 0xF);
        m.cpuWrite(0xB000, 0xF0 | ((value >> 12) & 0xF)); // high nibble of the data ignored
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(cart(Mirroring.VERTICAL));
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(14, prgBank(m, 0xC000));
        assertEquals(15, prgBank(m, 0xE000));
        m.cpuWrite(0xF000, 3);
        assertEquals(6, prgBank(m, 0x8000));
        assertEquals(7, prgBank(m, 0xA000));
        assertEquals(14, prgBank(m, 0xC000));
        m.cpuWrite(0xFFFF, 0xFD); // bits 0-2 only
        assertEquals(10, prgBank(m, 0x8000));
        m.cpuWrite(0x6000, 0x5A);
        m.cpuWrite(0x7FFF, 0xA5);
        assertEquals(0x5A, m.cpuRead(0x6000));
        assertEquals(0xA5, m.cpuRead(0x7FFF));
        m.ppuWrite(0x1234, 0x77); // CHR-RAM
        assertEquals(0x77, m.ppuRead(0x1234));
        assertEquals("0101", nametables(m));
        assertEquals("0011", nametables(Roms.mapper(cart(Mirroring.HORIZONTAL))));
    }

    @Test
    void sixteenBitIrq() {
        Mapper m = Roms.mapper(cart(Mirroring.VERTICAL));
        latch(m, 0xFFFD);
        m.cpuWrite(0xC000, 0x02); // enable (reloads the counter), 16-bit mode, no enable after ack
        cycles(m, 2); // $FFFE, $FFFF
        assertFalse(m.irq());
        cycles(m, 1); // overflow: reload $FFFD, IRQ
        assertTrue(m.irq());
        cycles(m, 5);
        assertTrue(m.irq()); // held until acknowledged
        m.cpuWrite(0xD000, 0); // acknowledge: enable := 0
        assertFalse(m.irq());
        cycles(m, 10);
        assertFalse(m.irq()); // stopped
        // The counter stopped at $FFFF (5 cycles after the IRQ: FFFE FFFF FFFD FFFE FFFF). Enable it
        // again without a reload: $C000 with A set and E clear, then $D000 moves A to E.
        m.cpuWrite(0xC000, 0x01);
        m.cpuWrite(0xD000, 0);
        assertFalse(m.irq());
        cycles(m, 1);
        assertTrue(m.irq());
        m.cpuWrite(0xC000, 0x00); // any $C000 write acknowledges; E clear stops it
        assertFalse(m.irq());
    }

    @Test
    void eightBitIrqCountsTheLowByteOnly() {
        Mapper m = Roms.mapper(cart(Mirroring.VERTICAL));
        latch(m, 0x12FD);
        m.cpuWrite(0xC000, 0x06); // enable, 8-bit mode
        cycles(m, 2); // $12FE, $12FF
        assertFalse(m.irq());
        cycles(m, 1); // low byte overflows: $12FD, IRQ (not $1300)
        assertTrue(m.irq());
        m.cpuWrite(0xC000, 0x06); // acknowledge and reload
        cycles(m, 3);
        assertTrue(m.irq());
        // A 16-bit counter from $12FD would need $ED03 cycles: check the 8-bit one wraps every $100 - $FD.
        m.cpuWrite(0xC000, 0x07);
        m.cpuWrite(0xD000, 0); // acknowledge, stays enabled (A = 1)
        cycles(m, 2);
        assertFalse(m.irq());
        cycles(m, 1);
        assertTrue(m.irq());
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart(Mirroring.HORIZONTAL);
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0xF000, 5);
        latch(m, 0xFF00);
        m.cpuWrite(0xC000, 0x03);
        cycles(m, 0x80);
        m.cpuWrite(0x6123, 0x42);
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        for (int i = 0; i < 0x80; i++) {
            assertFalse(m.irq());
            assertFalse(copy.irq());
            m.cpuCycle();
            copy.cpuCycle();
        }
        assertTrue(m.irq());
        assertTrue(copy.irq());
        assertEquals(0x42, copy.cpuRead(0x6123));
    }
}
