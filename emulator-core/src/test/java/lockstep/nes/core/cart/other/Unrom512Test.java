package lockstep.nes.core.cart.other;

import static lockstep.nes.core.cart.BoardAsserts.assertPrgBanks;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.cart.BoardSnapshots;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

class Unrom512Test {
    /** 512 KiB of PRG (8 KiB bank b holds b, its last 16 bytes $FF), CHR-RAM. */
    private static Cartridge.Builder cart() {
        return Cartridge.builder("u512.nes", Roms.prg(512), new byte[0], 30).prgRam(0, 0);
    }

    private static Mapper board(Cartridge.Builder b) {
        return Roms.mapper(b.build());
    }

    @Test
    void powerOnAndPrgBanks() {
        Mapper m = board(cart());
        assertPrgBanks(m, 0, 1, 62, 63);
        m.cpuWrite(0xFFF0, 0x13); // (no conflict: $FF there)
        assertPrgBanks(m, 38, 39, 62);
        m.cpuWrite(0xFFF0, 0x1F);
        assertEquals(62, prgBank(m, 0x8000));
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000)); // no PRG-RAM
    }

    @Test
    void chrRamBanksAre8KiBOf32() {
        Mapper m = board(cart());
        for (int b = 0; b < 4; b++) {
            m.cpuWrite(0xFFF0, b << 5);
            m.ppuWrite(0x0010, 0x20 + b);
            m.ppuWrite(0x1FF0, 0x30 + b);
        }
        for (int b = 0; b < 4; b++) {
            m.cpuWrite(0xFFF0, (b << 5) | 0x03);
            assertEquals(0x20 + b, m.ppuRead(0x0010));
            assertEquals(0x30 + b, m.ppuRead(0x1FF0));
            assertEquals(6, prgBank(m, 0x8000)); // PRG bank 3 alongside
        }
    }

    @Test
    void busConflictsFollowTheSubmapperAndBattery() {
        // $C000 holds 62 ($3E): a write of $25 there reads back $24 when the ROM fights it.
        // Submapper 0 without battery: conflicts, register everywhere.
        Mapper m = board(cart());
        m.cpuWrite(0xC000, 0x25);
        assertEquals((0x24 & 0x1F) * 2, prgBank(m, 0x8000));
        m.cpuWrite(0x8000, 0x07); // ROM byte 8 at $8000 (bank 8): 7 & 8 = 0
        assertEquals(0, prgBank(m, 0x8000));
        // Submapper 0 with battery (self-flashable): no conflicts, register only at $C000-$FFFF.
        m = board(cart().battery(true));
        m.cpuWrite(0xC000, 0x25);
        assertEquals(0x05 * 2, prgBank(m, 0x8000));
        m.cpuWrite(0x8000, 0x02); // flash port: not the register
        m.cpuWrite(0xBFFF, 0x02);
        assertEquals(0x05 * 2, prgBank(m, 0x8000));
        // Submapper 1: no conflicts; without battery, the register is everywhere.
        m = board(cart().submapper(1));
        m.cpuWrite(0xC000, 0x25);
        assertEquals(0x05 * 2, prgBank(m, 0x8000));
        m.cpuWrite(0x8000, 0x02);
        assertEquals(0x02 * 2, prgBank(m, 0x8000));
        // Submapper 2: conflicts.
        m = board(cart().submapper(2));
        m.cpuWrite(0xC000, 0x25);
        assertEquals(0x04 * 2, prgBank(m, 0x8000));
    }

    @Test
    void nametablesFollowTheHeader() {
        assertEquals("0011", nametables(board(cart().mirroring(Mirroring.HORIZONTAL))));
        assertEquals("0101", nametables(board(cart().mirroring(Mirroring.VERTICAL))));
        // Bit 3 without bit 0: one-screen, bit 7 of the register picks the page.
        Mapper m = board(cart().mirroring(Mirroring.FOUR_SCREEN).headerBit0(false));
        assertEquals("0000", nametables(m));
        m.cpuWrite(0xFFF0, 0x80);
        assertEquals("1111", nametables(m));
        m.cpuWrite(0xFFF0, 0x7F);
        assertEquals("0000", nametables(m));
        // Bits 3 and 0: four-screen, bit 7 ignored.
        m = board(cart().mirroring(Mirroring.FOUR_SCREEN).headerBit0(true));
        assertEquals("0123", nametables(m));
        m.cpuWrite(0xFFF0, 0x80);
        assertEquals("0123", nametables(m));
        // H/V boards ignore bit 7.
        m = board(cart().mirroring(Mirroring.VERTICAL));
        m.cpuWrite(0xFFF0, 0x80);
        assertEquals("0101", nametables(m));
        // Submapper 3: bit 7 picks vertical (0) or horizontal (1).
        m = board(cart().submapper(3));
        assertEquals("0101", nametables(m));
        m.cpuWrite(0xFFF0, 0x80);
        assertEquals("0011", nametables(m));
    }

    @Test
    void headerBitsReachTheBoard() throws RomFormatException {
        for (int flags : new int[] {0, 1, 8, 9}) {
            Cartridge c = Cartridge.parse("u.nes", Roms.ines(30, 64, 0, flags));
            Mapper m = Roms.mapper(c);
            m.cpuWrite(0xFFF0, 0x80);
            String expected = switch (flags) {
                case 0 -> "0011";
                case 1 -> "0101";
                case 8 -> "1111";
                default -> "0123";
            };
            assertEquals(expected, nametables(m), "flags6 " + flags);
        }
    }

    @Test
    void snapshotRoundTrip() {
        Cartridge cart = cart().mirroring(Mirroring.FOUR_SCREEN).headerBit0(false).build();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0xFFF0, 0xC9); // one-screen B, CHR bank 2, PRG bank 9
        m.ppuWrite(0x0042, 0x66);
        Mapper copy = BoardSnapshots.copy(cart, m);
        BoardSnapshots.assertSameView(m, copy);
        assertEquals(18, prgBank(copy, 0x8000));
        assertEquals(0x66, copy.ppuRead(0x0042));
        assertEquals("1111", nametables(copy));
    }
}
