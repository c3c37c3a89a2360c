package lockstep.nes.core.cart.taito;

import static lockstep.nes.core.cart.BoardAsserts.assertChrBanks;
import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class TaitoX1005Test {
    private static Cartridge cart(boolean battery) {
        return Cartridge.builder("x1005.nes", Roms.prg(256), Roms.chr(256), 80).battery(battery).build();
    }

    @Test
    void banking() {
        Mapper m = Roms.mapper(cart(false));
        assertEquals(31, prgBank(m, 0xE000));
        m.cpuWrite(0x7EFA, 3);
        m.cpuWrite(0x7EFD, 4); // odd address of the pair
        m.cpuWrite(0x7EFE, 5);
        assertPrgBanks(m, 3, 4, 5, 31);
        m.cpuWrite(0x7EF0, 0x21); // 2 KiB banks: low bit ignored
        m.cpuWrite(0x7EF1, 0x40);
        for (int i = 0; i < 4; i++) {
            m.cpuWrite(0x7EF2 + i, 0x80 + i);
        }
        assertChrBanks(m, 0x20, 0x21, 0x40, 0x41);
        for (int i = 0; i < 4; i++) {
            assertEquals(0x80 + i, chrBank(m, 0x1000 + i * 0x400));
        }
        m.cpuWrite(0x8000, 9); // nothing at $8000
        m.cpuWrite(0x7EEF, 9);
        assertEquals(3, prgBank(m, 0x8000));
        assertEquals("0011", nametables(m));
        m.cpuWrite(0x7EF6, 1);
        assertEquals("0101", nametables(m));
        m.cpuWrite(0x7EF7, 0xFE);
        assertEquals("0011", nametables(m));
    }

    @Test
    void internalRamNeedsTheKeyAndIsMirrored() {
        Mapper m = Roms.mapper(cart(true));
        m.cpuWrite(0x7F10, 0x55);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x7F10));
        m.cpuWrite(0x7EF8, 0xA3);
        assertEquals(0, m.cpuRead(0x7F10)); // the disabled write did not land
        m.cpuWrite(0x7F10, 0x55);
        assertEquals(0x55, m.cpuRead(0x7F10));
        assertEquals(0x55, m.cpuRead(0x7F90)); // 128 bytes, mirrored
        m.cpuWrite(0x7FFF, 0x66);
        assertEquals(0x66, m.cpuRead(0x7F7F));
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x7EFF)); // registers do not read back
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000)); // nothing below $7F00
        m.cpuWrite(0x7EF9, 0xA2); // any other value locks it
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x7F10));
        m.cpuWrite(0x7F10, 0x77);
        m.cpuWrite(0x7EF9, 0xA3);
        assertEquals(0x55, m.cpuRead(0x7F10));
        assertEquals(128, m.batteryRam().size()); // the battery keeps the chip's RAM
        assertNull(Roms.mapper(cart(false)).batteryRam());
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart(true);
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0x7EF8, 0xA3);
        m.cpuWrite(0x7F42, 0x24);
        m.cpuWrite(0x7EFC, 7);
        m.cpuWrite(0x7EF3, 0x33);
        m.cpuWrite(0x7EF6, 1);
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        assertEquals(0x24, copy.cpuRead(0x7F42));
        assertEquals(7, prgBank(copy, 0xA000));
        assertEquals(0x33, chrBank(copy, 0x1400));
        assertEquals("0101", nametables(copy));
    }
}
