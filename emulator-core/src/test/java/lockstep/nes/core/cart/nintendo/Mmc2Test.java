package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Mmc2Test {
    private static Mapper setUp(int mapper) {
        Mapper m = Roms.mapper(Roms.cart(mapper, 128, 128));
        m.cpuWrite(0xB000, 1); // $0000 FD
        m.cpuWrite(0xC000, 2); // $0000 FE
        m.cpuWrite(0xD000, 3); // $1000 FD
        m.cpuWrite(0xE000, 4); // $1000 FE
        return m;
    }

    @Test
    void mmc2PrgAndLatches() {
        Mapper m = setUp(9);
        m.cpuWrite(0xA000, 5);
        assertEquals(5, prgBank(m, 0x8000));
        assertEquals(13, prgBank(m, 0xA000));
        assertEquals(15, prgBank(m, 0xE000));
        // Power-on latches are FE.
        assertEquals(8, chrBank(m, 0x0000));
        assertEquals(16, chrBank(m, 0x1000));
        // Reading tile $FD's last row at $0FD8 flips latch 0 after the read.
        assertEquals(8 + 3, m.ppuRead(0x0FD8)); // still the FE bank's data
        assertEquals(4, chrBank(m, 0x0000));
        m.ppuRead(0x0FE9); // MMC2 latch 0 only reacts to $0FE8 exactly
        assertEquals(4, chrBank(m, 0x0000));
        m.ppuRead(0x0FE8);
        assertEquals(8, chrBank(m, 0x0000));
        m.ppuRead(0x1FDD); // latch 1 reacts to $1FD8-$1FDF
        assertEquals(12, chrBank(m, 0x1000));
        m.ppuRead(0x1FEF);
        assertEquals(16, chrBank(m, 0x1000));
        m.cpuWrite(0xF000, 0);
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xF000, 1);
        assertEquals("0011", nametables(m));
    }

    @Test
    void mmc4PrgAndLatchRanges() {
        Mapper m = setUp(10);
        m.cpuWrite(0xA000, 3);
        assertEquals(6, prgBank(m, 0x8000));
        assertEquals(7, prgBank(m, 0xA000));
        assertEquals(14, prgBank(m, 0xC000));
        m.ppuRead(0x0FDB); // MMC4: the whole $0FD8-$0FDF
        assertEquals(4, chrBank(m, 0x0000));
        m.cpuWrite(0x6000, 0x5A); // 8 KiB PRG-RAM
        assertEquals(0x5A, m.cpuRead(0x6000));
    }
}
