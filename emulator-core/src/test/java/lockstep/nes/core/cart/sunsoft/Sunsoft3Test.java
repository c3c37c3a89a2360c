package lockstep.nes.core.cart.sunsoft;

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

class Sunsoft3Test {
    private static Cartridge cart() {
        return Roms.cart(67, 128, 128);
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(cart());
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(14, prgBank(m, 0xC000));
        assertEquals(15, prgBank(m, 0xE000));
        m.cpuWrite(0xF800, 5);
        assertPrgBanks(m, 10, 11, 14);
        m.cpuWrite(0x8800, 3);
        m.cpuWrite(0x9FFF, 4); // mirrors of $9800
        m.cpuWrite(0xA800, 5);
        m.cpuWrite(0xB800, 6);
        assertEquals(6, chrBank(m, 0x0000));
        assertEquals(7, chrBank(m, 0x0400));
        assertEquals(8, chrBank(m, 0x0800));
        assertEquals(10, chrBank(m, 0x1000));
        assertEquals(13, chrBank(m, 0x1C00));
        m.cpuWrite(0x8000, 9); // A11 clear: the IRQ acknowledge, not a CHR bank
        m.cpuWrite(0xF000, 9); // nor the PRG bank
        assertEquals(6, chrBank(m, 0x0000));
        assertEquals(10, prgBank(m, 0x8000));
        String[] expected = {"0101", "0011", "0000", "1111"};
        for (int i = 0; i < 4; i++) {
            m.cpuWrite(0xE800, 0xFC | i);
            assertEquals(expected[i], nametables(m));
        }
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
    }

    @Test
    void irqWhenTheCountWrapsThenPauses() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC800, 0x00); // high byte
        m.cpuWrite(0xC800, 0x03); // low byte
        m.cpuWrite(0xD800, 0x10); // count
        cycles(m, 3); // 2, 1, 0
        assertFalse(m.irq());
        cycles(m, 1); // wraps to $FFFF: IRQ, counting stops
        assertTrue(m.irq());
        m.cpuWrite(0x8000, 0); // A11 clear: acknowledges
        assertFalse(m.irq());
        cycles(m, 0x20000); // paused: no second wrap
        assertFalse(m.irq());
        // Enabling again counts $FFFF down to 0, then wraps ($10000 cycles).
        m.cpuWrite(0xD800, 0x10);
        cycles(m, 0xFFFF);
        assertFalse(m.irq());
        cycles(m, 1);
        assertTrue(m.irq());
        m.cpuWrite(0xD800, 0x00); // does not acknowledge
        assertTrue(m.irq());
        m.cpuWrite(0xB7FF, 0); // another address with A11 clear
        assertFalse(m.irq());
    }

    @Test
    void d800ResetsTheWriteToggle() {
        Mapper m = Roms.mapper(cart());
        m.cpuWrite(0xC800, 0x12); // high byte, then the toggle says low...
        m.cpuWrite(0xD800, 0x00); // ...until $D800 resets it
        m.cpuWrite(0xC800, 0x00); // high
        m.cpuWrite(0xCFFF, 0x01); // low (a mirror)
        m.cpuWrite(0xD800, 0x10);
        cycles(m, 1);
        assertFalse(m.irq());
        cycles(m, 1);
        assertTrue(m.irq()); // $0001 -> 0 -> $FFFF: the $12 went away
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0xF800, 3);
        m.cpuWrite(0xA800, 7);
        m.cpuWrite(0xE800, 3);
        m.cpuWrite(0xC800, 0x01);
        m.cpuWrite(0xC800, 0x00);
        m.cpuWrite(0xD800, 0x10);
        cycles(m, 0x80);
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        for (Mapper b : new Mapper[] {m, copy}) {
            cycles(b, 0x80);
            assertFalse(b.irq());
            cycles(b, 1);
            assertTrue(b.irq());
        }
    }
}
