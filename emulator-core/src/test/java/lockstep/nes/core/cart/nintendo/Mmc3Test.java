package lockstep.nes.core.cart.nintendo;

import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.BoardAsserts.cycles;
import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import lockstep.nes.core.cart.part.A12Filter;
import org.junit.jupiter.api.Test;

class Mmc3Test {
    private static Mmc3 mmc3(Mmc3.Revision rev) {
        return (Mmc3) Roms.mapper(Cartridge.builder("t.nes", Roms.prg(256), Roms.chr(256), 4)
                .submapper(rev == Mmc3.Revision.MMC3A ? 4 : rev == Mmc3.Revision.MMC6 ? 1 : 0).build());
    }

    private static void set(Mapper m, int reg, int value) {
        m.cpuWrite(0x8000, reg);
        m.cpuWrite(0x8001, value);
    }

    /** One scanline as the PPU fetches it with BG at $0000 and sprites at $1000: one A12 rise. */
    private static void scanline(Mapper m) {
        for (int i = 0; i < 32; i++) {
            m.ppuRead(0x2000 + i); // nametable
            m.ppuRead(0x0000 + i * 16); // BG pattern, A12 low
            if (i % 3 == 0) {
                m.cpuCycle();
            }
        }
        cycles(m, 75);
        for (int i = 0; i < 8; i++) {
            m.ppuRead(0x2000); // garbage nametable fetches: A12 low for ~1 CPU cycle
            m.cpuCycle();
            m.ppuRead(0x1000 + i * 16); // sprite pattern, A12 high
            m.cpuCycle();
        }
    }

    @Test
    void bankSwitching() {
        Mmc3 m = mmc3(Mmc3.Revision.MMC3B);
        for (int r = 0; r < 6; r++) {
            set(m, r, 10 + r * 20);
        }
        set(m, 6, 7);
        set(m, 7, 9);
        assertEquals(10, chrBank(m, 0x0000)); // R0 low bit ignored
        assertEquals(11, chrBank(m, 0x0400));
        assertEquals(30, chrBank(m, 0x0800));
        assertEquals(31, chrBank(m, 0x0C00));
        assertEquals(50, chrBank(m, 0x1000));
        assertEquals(110, chrBank(m, 0x1C00));
        assertPrgBanks(m, 7, 9, 30, 31);
        m.cpuWrite(0x8000, 0xC0); // PRG mode 1, CHR A12 inversion
        assertEquals(30, prgBank(m, 0x8000));
        assertEquals(7, prgBank(m, 0xC000));
        assertEquals(50, chrBank(m, 0x0000));
        assertEquals(10, chrBank(m, 0x1000));
        assertEquals(31, chrBank(m, 0x1C00));
        m.cpuWrite(0xA000, 0);
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xA000, 1);
        assertEquals("0011", nametables(m));
        // Mirrors of the registers: any even/odd address in the 8 KiB range.
        m.cpuWrite(0x9FFE, 0x06);
        m.cpuWrite(0x9FFF, 3);
        assertEquals(3, prgBank(m, 0x8000));
    }

    @Test
    void prgRamProtect() {
        Mmc3 m = mmc3(Mmc3.Revision.MMC3B);
        m.cpuWrite(0x6000, 0x42);
        assertEquals(0x42, m.cpuRead(0x6000));
        m.cpuWrite(0xA001, 0xC0); // enabled, write-protected
        m.cpuWrite(0x6000, 0x43);
        assertEquals(0x42, m.cpuRead(0x6000));
        m.cpuWrite(0xA001, 0x00); // disabled: open bus
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
        // An iNES (not NES 2.0) image ignores the bits: it may be an MMC6 game.
        Mapper ines = Roms.mapper(Roms.cart(4, 128, 128));
        ines.cpuWrite(0xA001, 0xF0);
        ines.cpuWrite(0x6000, 0x44);
        assertEquals(0x44, ines.cpuRead(0x6000));
    }

    @Test
    void irqAfterLatchPlusOneScanlines() {
        Mmc3 m = mmc3(Mmc3.Revision.MMC3B);
        m.cpuWrite(0xC000, 3);
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xE001, 0);
        scanline(m); // reload to 3
        scanline(m); // 2
        scanline(m); // 1
        assertFalse(m.irq());
        scanline(m); // 0 -> IRQ
        assertTrue(m.irq());
        m.cpuWrite(0xE000, 0); // acknowledge and disable
        assertFalse(m.irq());
        m.cpuWrite(0xE001, 0);
        scanline(m); // reload to 3
        scanline(m);
        scanline(m);
        assertFalse(m.irq());
        scanline(m);
        assertTrue(m.irq());
    }

    @Test
    void a12FilterIgnoresShortLowPulses() {
        Mmc3 m = mmc3(Mmc3.Revision.MMC3B);
        m.cpuWrite(0xC000, 0);
        m.cpuWrite(0xC001, 0);
        m.cpuWrite(0xE001, 0);
        cycles(m, 10);
        m.ppuRead(0x1000); // first rise after a long low: clocked (reload to 0 -> IRQ on rev B)
        assertTrue(m.irq());
        m.cpuWrite(0xE000, 0);
        m.cpuWrite(0xE001, 0);
        for (int i = 0; i < 20; i++) {
            m.ppuRead(0x0000); // low for 2 CPU cycles only
            cycles(m, 2);
            m.ppuRead(0x1000);
            m.cpuCycle();
        }
        assertFalse(m.irq(), "short A12 low pulses must not clock the counter");
        m.ppuAddress(0x0000);
        cycles(m, A12Filter.LOW_CYCLES);
        m.ppuAddress(0x1000); // a $2006 write raising A12 after a long low clocks it
        assertTrue(m.irq());
    }

    @Test
    void revisionsDifferOnLatchZero() {
        for (Mmc3.Revision rev : Mmc3.Revision.values()) {
            Mmc3 m = mmc3(rev);
            m.cpuWrite(0xC000, 0);
            m.cpuWrite(0xC001, 0);
            m.cpuWrite(0xE001, 0);
            scanline(m); // reload with 0: both revisions fire (the reload flag was set)
            assertTrue(m.irq(), rev + " first clock");
            m.cpuWrite(0xE000, 0);
            m.cpuWrite(0xE001, 0);
            scanline(m); // counter 0 -> reloaded with 0 again
            assertEquals(rev == Mmc3.Revision.MMC3B, m.irq(), rev + " second clock");
        }
    }

    @Test
    void revisionsDifferOnReloadOfNonZeroAfterC001() {
        // Latch 1: rev A and B both count 1 -> 0 -> IRQ; the difference is only for 0.
        for (Mmc3.Revision rev : Mmc3.Revision.values()) {
            Mmc3 m = mmc3(rev);
            m.cpuWrite(0xC000, 1);
            m.cpuWrite(0xC001, 0);
            m.cpuWrite(0xE001, 0);
            scanline(m);
            assertFalse(m.irq());
            scanline(m);
            assertTrue(m.irq(), rev.toString());
        }
    }

    @Test
    void mmc6RamHalvesWithEnables() {
        Mmc3 m = mmc3(Mmc3.Revision.MMC6);
        assertEquals(1024, m.prgRam().size());
        m.cpuWrite(0x7000, 0x11);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x7000)); // RAM disabled by $8000 bit 5
        m.cpuWrite(0x8000, 0x20);
        m.cpuWrite(0xA001, 0xF0); // both halves readable and writable
        m.cpuWrite(0x7000, 0x11);
        m.cpuWrite(0x7200, 0x22);
        assertEquals(0x11, m.cpuRead(0x7400)); // mirrored every 1 KiB
        assertEquals(0x22, m.cpuRead(0x7E00));
        m.cpuWrite(0xA001, 0x80); // only the high half readable, nothing writable
        assertEquals(0, m.cpuRead(0x7000));
        assertEquals(0x22, m.cpuRead(0x7200));
        m.cpuWrite(0x7200, 0x33);
        assertEquals(0x22, m.cpuRead(0x7200));
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000));
    }

    @Test
    void txsromNametablesFromChrBankBit7() {
        Mapper m = Roms.mapper(Cartridge.builder("t.nes", Roms.prg(128), Roms.chr(128), 118).build());
        set(m, 0, 0x80);
        set(m, 1, 0x00);
        assertEquals("1100", nametables(m));
        // Inverted (bank select bit 7): R2-R5 drive the four tables.
        set(m, 0x82, 0x00);
        set(m, 0x83, 0x80);
        set(m, 0x84, 0x00);
        set(m, 0x85, 0x80);
        assertEquals("0101", nametables(m));
    }

    @Test
    void dotsToTheNthSpriteFetchRise() {
        assertEquals(332, Mmc3.dotsToSpriteFetchRise(100, 270, 1)); // the next line's dot 261
        assertEquals(1, Mmc3.dotsToSpriteFetchRise(100, 260, 1));
        assertEquals(341 + 1, Mmc3.dotsToSpriteFetchRise(100, 260, 2));
        // From vblank the next is the pre-render line's, then line 0's (one dot may be skipped).
        assertEquals(261 * 341 + 261 - 245 * 341, Mmc3.dotsToSpriteFetchRise(245, 0, 1));
        assertEquals(40 + 1 + 261 - 1, Mmc3.dotsToSpriteFetchRise(261, 300, 1));
        // 241 rendering lines a frame: the 242nd rise from line 0's start is a frame later.
        assertEquals(262 * 341 - 1 + 261, Mmc3.dotsToSpriteFetchRise(0, 0, 242));
    }
}
