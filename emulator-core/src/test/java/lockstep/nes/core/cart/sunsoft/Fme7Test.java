package lockstep.nes.core.cart.sunsoft;

import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Fme7Test {
    private static void cmd(Mapper m, int command, int value) {
        m.cpuWrite(0x8000, command);
        m.cpuWrite(0xA000, value);
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(Roms.cart(69, 256, 256));
        for (int i = 0; i < 8; i++) {
            cmd(m, i, 100 + i);
        }
        cmd(m, 9, 3);
        cmd(m, 10, 4);
        cmd(m, 11, 5);
        for (int i = 0; i < 8; i++) {
            assertEquals(100 + i, chrBank(m, i * 0x400));
        }
        assertEquals(3, prgBank(m, 0x8000));
        assertEquals(4, prgBank(m, 0xA000));
        assertEquals(5, prgBank(m, 0xC000));
        assertEquals(31, prgBank(m, 0xE000));
        cmd(m, 8, 7); // ROM bank 7 at $6000
        assertEquals(7, m.cpuRead(0x6000));
        cmd(m, 8, 0x40); // RAM selected but disabled
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        cmd(m, 8, 0xC0);
        m.cpuWrite(0x6000, 0x77);
        assertEquals(0x77, m.cpuRead(0x6000));
        String[] expected = {"0101", "0011", "0000", "1111"};
        for (int i = 0; i < 4; i++) {
            cmd(m, 12, i);
            assertEquals(expected[i], nametables(m));
        }
    }

    @Test
    void cycleIrq() {
        Mapper m = Roms.mapper(Roms.cart(69, 128, 128));
        cmd(m, 14, 3);
        cmd(m, 15, 0);
        cmd(m, 13, 0x81); // counter and IRQ enabled
        for (int i = 0; i < 3; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq()); // 3 -> 0
        m.cpuCycle(); // 0 -> $FFFF
        assertTrue(m.irq());
        cmd(m, 13, 0x80); // acknowledge; counter keeps running, IRQ off
        assertFalse(m.irq());
        for (int i = 0; i < 0x10000; i++) {
            m.cpuCycle();
        }
        assertFalse(m.irq());
        cmd(m, 13, 0x00); // counter stopped
        cmd(m, 14, 0);
        cmd(m, 13, 0x01);
        m.cpuCycle();
        assertFalse(m.irq());
    }
}
