package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Mmc1Test {
    /** Writes a 5-bit register serially, a few CPU cycles apart (as STA does). */
    static void write(Mapper m, int addr, int value) {
        for (int i = 0; i < 5; i++) {
            m.cpuCycle();
            m.cpuCycle();
            m.cpuWrite(addr, (value >> i) & 1);
        }
    }

    private static Mapper mmc1(int prgKib, int chrKib) {
        return Roms.mapper(Roms.cart(1, prgKib, chrKib));
    }

    @Test
    void prgModes() {
        Mapper m = mmc1(256, 128);
        // Power-on: mode 3, $8000 switchable, $C000 the last 16 KiB.
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(30, prgBank(m, 0xC000));
        assertEquals(31, prgBank(m, 0xE000));
        write(m, 0xE000, 5);
        assertPrgBanks(m, 10, 11, 30);
        write(m, 0x8000, 0x08); // mode 2: $8000 fixed to the first bank, $C000 switchable
        assertEquals(0, prgBank(m, 0x8000));
        assertEquals(10, prgBank(m, 0xC000));
        write(m, 0x8000, 0x00); // mode 0: 32 KiB, low bit ignored
        assertEquals(8, prgBank(m, 0x8000));
        assertEquals(11, prgBank(m, 0xE000));
    }

    @Test
    void chrModesAndMirroring() {
        Mapper m = mmc1(128, 128);
        write(m, 0x8000, 0x1C); // 4 KiB CHR mode
        write(m, 0xA000, 3);
        write(m, 0xC000, 5);
        assertEquals(12, chrBank(m, 0x0000));
        assertEquals(15, chrBank(m, 0x0C00));
        assertEquals(20, chrBank(m, 0x1000));
        write(m, 0x8000, 0x0C); // 8 KiB mode: chr0 with its low bit ignored
        assertEquals(8, chrBank(m, 0x0000));
        assertEquals(12, chrBank(m, 0x1000));
        assertEquals("0000", nametables(m));
        write(m, 0x8000, 0x0D);
        assertEquals("1111", nametables(m));
        write(m, 0x8000, 0x0E);
        assertEquals("0101", nametables(m));
        write(m, 0x8000, 0x0F);
        assertEquals("0011", nametables(m));
    }

    @Test
    void resetBitAndConsecutiveWritesIgnored() {
        Mapper m = mmc1(256, 128);
        write(m, 0x8000, 0x00); // PRG mode 0
        m.cpuCycle();
        m.cpuCycle();
        m.cpuWrite(0x8000, 0x80); // reset: shift cleared, PRG mode 3
        assertEquals(30, prgBank(m, 0xC000));

        // A read-modify-write writes twice on consecutive cycles: the second write is ignored.
        m.cpuCycle();
        m.cpuCycle();
        m.cpuWrite(0xE000, 1); // bit 0 = 1
        m.cpuCycle();
        m.cpuWrite(0xE000, 0); // ignored
        for (int i = 1; i < 5; i++) {
            m.cpuCycle();
            m.cpuCycle();
            m.cpuWrite(0xE000, i == 1 ? 1 : 0); // bit 1 = 1
        }
        assertEquals(6, prgBank(m, 0x8000)); // PRG bank 3 -> 8 KiB bank 6

        // The RMW pattern that games use to reset: INC $8000 writes $FF then $00.
        m.cpuCycle();
        m.cpuCycle();
        m.cpuWrite(0x8000, 0xFF);
        m.cpuCycle();
        m.cpuWrite(0x8000, 0x00); // ignored; if not, it would be the first bit of a new value
        write(m, 0xE000, 2);
        assertEquals(4, prgBank(m, 0x8000));
    }

    @Test
    void suromSelectsThe256KibHalfWithChrBit4() {
        Mapper m = mmc1(512, 0);
        assertEquals(30, prgBank(m, 0xC000));
        write(m, 0xA000, 0x10);
        assertEquals(32, prgBank(m, 0x8000));
        assertEquals(62, prgBank(m, 0xC000));
        write(m, 0xE000, 3);
        assertEquals(38, prgBank(m, 0x8000));
    }

    @Test
    void prgBlockFollowsA12In4KibChrMode() {
        Mapper m = mmc1(512, 0);
        write(m, 0x8000, 0x1C); // 4 KiB CHR mode
        write(m, 0xA000, 0x00);
        write(m, 0xC000, 0x10);
        m.ppuRead(0x0000);
        assertEquals(30, prgBank(m, 0xC000));
        m.ppuRead(0x1000); // A12 high: CHR bank 1 drives the PRG block
        assertEquals(62, prgBank(m, 0xC000));
        m.ppuAddress(0x0FF0);
        assertEquals(30, prgBank(m, 0xC000));
    }

    @Test
    void sxromAndSoromPrgRamBanks() {
        Cartridge sx = Cartridge.builder("sx.nes", Roms.prg(512), new byte[0], 1).prgRam(0, 32768).battery(true).build();
        Mapper m = Roms.mapper(sx);
        for (int bank = 0; bank < 4; bank++) {
            write(m, 0xA000, bank << 2);
            m.cpuWrite(0x6000, 0x40 + bank);
        }
        for (int bank = 0; bank < 4; bank++) {
            write(m, 0xA000, bank << 2);
            assertEquals(0x40 + bank, m.cpuRead(0x6000));
        }
        Cartridge so = Cartridge.builder("so.nes", Roms.prg(256), new byte[0], 1).prgRam(8192, 8192).build();
        Mapper o = Roms.mapper(so);
        write(o, 0xA000, 0x00);
        o.cpuWrite(0x7000, 1);
        write(o, 0xA000, 0x08);
        o.cpuWrite(0x7000, 2);
        write(o, 0xA000, 0x00);
        assertEquals(1, o.cpuRead(0x7000));
        assertEquals(16384, o.prgRam().size());
    }

    @Test
    void prgRamDisableBit() {
        Mapper m = mmc1(128, 0);
        m.cpuWrite(0x6000, 0x99);
        assertEquals(0x99, m.cpuRead(0x6000));
        write(m, 0xE000, 0x10);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        m.cpuWrite(0x6000, 0x11); // ignored while disabled
        write(m, 0xE000, 0x00);
        assertEquals(0x99, m.cpuRead(0x6000));
        // MMC1A (mapper 155) has no disable bit.
        Mapper a = Roms.mapper(Roms.cart(155, 128, 0));
        write(a, 0xE000, 0x10);
        a.cpuWrite(0x6000, 0x12);
        assertEquals(0x12, a.cpuRead(0x6000));
    }

    @Test
    void snromPrgRamDisableFollowsA12() {
        Mapper m = mmc1(128, 0); // SNROM: CHR-RAM, 256 KiB PRG or less
        m.cpuWrite(0x6000, 0x5A);
        write(m, 0x8000, 0x1C); // 4 KiB CHR mode
        write(m, 0xA000, 0x00); // $0000 half: RAM enabled
        write(m, 0xC000, 0x10); // $1000 half: RAM disabled
        m.ppuRead(0x0000);
        assertEquals(0x5A, m.cpuRead(0x6000));
        m.ppuRead(0x1000);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        m.cpuWrite(0x6000, 0x11); // ignored
        m.ppuRead(0x0800);
        assertEquals(0x5A, m.cpuRead(0x6000));
        write(m, 0x8000, 0x0C); // 8 KiB mode: CHR bank 0 decides
        write(m, 0xA000, 0x10);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
    }

    @Test
    void withSubmapperKeepsTheRestOfTheCartridge() {
        Cartridge c = Roms.cart(4, 128, 128);
        Cartridge a = c.withSubmapper(4);
        assertEquals(4, a.submapper());
        assertEquals(c.prg(), a.prg());
        assertEquals(Mmc3.Revision.MMC3A, ((Mmc3) Roms.mapper(a)).revision());
        assertEquals(Mmc3.Revision.MMC3B, ((Mmc3) Roms.mapper(c)).revision());
    }
}
