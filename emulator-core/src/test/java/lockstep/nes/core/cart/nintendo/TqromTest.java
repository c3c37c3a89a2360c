package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.Roms.chrBank;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

/** TQROM (mapper 119): an MMC3 whose CHR bank values with bit 6 set pick its 8 KiB of CHR-RAM. */
class TqromTest {
    @Test
    void bit6OfABankPicksTheChrRam() {
        Mapper m = Roms.mapper(Roms.cart(119, 128, 64));
        m.cpuWrite(0x8000, 2); // R2: 1 KiB at $1000
        m.cpuWrite(0x8001, 5);
        assertEquals(5, chrBank(m, 0x1000));
        m.ppuWrite(0x1000, 0x77); // ROM: the write is refused
        assertEquals(5, m.ppuRead(0x1000));
        m.cpuWrite(0x8001, 0x40 | 3); // CHR-RAM page 3
        m.ppuWrite(0x1000, 0x77);
        m.cpuWrite(0x8000, 3); // R3 at $1400: RAM page 3 too
        m.cpuWrite(0x8001, 0x43);
        assertEquals(0x77, m.ppuRead(0x1400));
        m.cpuWrite(0x8001, 0x40 | 4);
        assertEquals(0, m.ppuRead(0x1400));
        m.cpuWrite(0x8001, 63); // the last ROM bank
        assertEquals(63, chrBank(m, 0x1400));
        m.power(); // power-on clears the RAM and keeps the ROM
        m.cpuWrite(0x8000, 2);
        m.cpuWrite(0x8001, 0x43);
        assertEquals(0, m.ppuRead(0x1000));
        m.cpuWrite(0x8001, 9);
        assertEquals(9, chrBank(m, 0x1000));
    }
}
