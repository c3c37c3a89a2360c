package lockstep.nes.core.cart.konami;

import static lockstep.nes.core.cart.Roms.chrBank;
import static lockstep.nes.core.cart.Roms.nametables;
import static lockstep.nes.core.cart.Roms.prgBank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mappers;
import lockstep.nes.core.cart.Roms;
import org.junit.jupiter.api.Test;

/** The VRC7 board (mapper 85): banking by submapper, mirroring, PRG-RAM, the VRC IRQ. */
class Vrc7Test {
    private static Mapper board(int submapper) {
        Cartridge.Builder b = Cartridge.builder("vrc7.nes", Roms.prg(256), Roms.chr(256), 85);
        if (submapper != 0) {
            b.submapper(submapper);
        }
        return Roms.mapper(b.build());
    }

    @Test
    void isSupported() {
        assertTrue(Mappers.isSupported(85));
        assertTrue(board(0) instanceof Vrc7);
    }

    @Test
    void prgAndChrBanksOnEitherLine() {
        // VRC7a (2) decodes A4, VRC7b (1) A3, and without a submapper either selects the second register.
        int[][] lines = {{2, 0x10}, {1, 0x08}, {0, 0x10}, {0, 0x08}};
        for (int[] l : lines) {
            Mapper m = board(l[0]);
            m.cpuWrite(0x8000, 5);
            m.cpuWrite(0x8000 | l[1], 6);
            m.cpuWrite(0x9000, 7);
            assertEquals(5, prgBank(m, 0x8000));
            assertEquals(6, prgBank(m, 0xA000));
            assertEquals(7, prgBank(m, 0xC000));
            assertEquals(31, prgBank(m, 0xE000));
            for (int i = 0; i < 8; i++) {
                m.cpuWrite(0xA000 + (i >> 1) * 0x1000 + (i & 1) * l[1], 0x40 + i);
            }
            for (int i = 0; i < 8; i++) {
                assertEquals(0x40 + i, chrBank(m, i * 0x400), "CHR bank " + i + " on line " + l[1]);
            }
        }
        // The VRC7a ignores A3: $8008 is $8000.
        Mapper a = board(2);
        a.cpuWrite(0x8008, 9);
        assertEquals(9, prgBank(a, 0x8000));
    }

    @Test
    void mirroringAndPrgRam() {
        Mapper m = board(2);
        String[] modes = {"0101", "0011", "0000", "1111"};
        for (int v = 0; v < 4; v++) {
            m.cpuWrite(0xE000, v);
            assertEquals(modes[v], nametables(m));
        }
        m.cpuWrite(0x6000, 0x5A);
        assertEquals(Mapper.OPEN_BUS, m.cpuRead(0x6000), "RAM disabled");
        m.cpuWrite(0xE000, 0x80);
        m.cpuWrite(0x6000, 0x5A);
        assertEquals(0x5A, m.cpuRead(0x6000));
    }

    @Test
    void theVrcIrqInCycleMode() {
        Mapper m = board(2);
        m.cpuWrite(0xE010, 0xFE); // latch
        m.cpuWrite(0xF000, 0x07); // cycle mode, enable, enable after acknowledge
        m.cpuCycle();
        assertFalse(m.irq());
        m.cpuCycle();
        assertTrue(m.irq(), "$FE, $FF, then the overflow");
        m.cpuWrite(0xF010, 0); // acknowledge
        assertFalse(m.irq());
    }
}
