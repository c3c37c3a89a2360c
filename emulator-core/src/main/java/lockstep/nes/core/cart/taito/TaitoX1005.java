package lockstep.nes.core.cart.taito;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 80: Taito X1-005. Registers at $7EF0-$7EFF (from $7EF6 on, each pair of addresses is one
 * register): $7EF0/$7EF1 2 KiB CHR banks at $0000/$0800 (low bit ignored), $7EF2-$7EF5 1 KiB CHR
 * banks at $1000-$1C00, $7EF6 bit 0 nametables (0 horizontal, 1 vertical), $7EF8 the internal
 * RAM's enable ($A3 enables, anything else disables), $7EFA/$7EFC/$7EFE the 8 KiB PRG banks at
 * $8000/$A000/$C000 ($E000 is the last bank).
 *
 * <p>The chip's 128 bytes of RAM (battery-backed on the games that save) sit at $7F00-$7F7F,
 * mirrored at $7F80-$7FFF; nothing else answers in $6000-$7FFF. They are the board's
 * {@link #prgRam}, so the battery save keeps them.
 */
public final class TaitoX1005 extends Mapper {
    private static final int RAM_SIZE = 128;
    private static final int RAM_KEY = 0xA3;

    private final int[] chrRegs = new int[6];
    private final int[] prgRegs = new int[3];
    private int mirror;
    private int ramEnable;

    public TaitoX1005(Cartridge cart) {
        super(cart, RAM_SIZE);
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_READ | BoardHooks.CPU_READ_BELOW_8000;
    }

    @Override
    public int cpuRead(int addr) {
        if (addr >= 0x6000 && addr < 0x8000) {
            return addr >= 0x7F00 && ramEnable == RAM_KEY ? prgRam.read(addr & (RAM_SIZE - 1)) : OPEN_BUS;
        }
        return super.cpuRead(addr);
    }

    /** Reads change nothing: the cached digest term holds across them. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x7F00 && addr < 0x8000) {
            if (ramEnable == RAM_KEY) {
                prgRam.write(addr & (RAM_SIZE - 1), value);
            }
            return;
        }
        if (addr < 0x7EF0 || addr > 0x7EFF) {
            return;
        }
        switch (addr & 0x0F) {
            case 0, 1, 2, 3, 4, 5 -> chrRegs[addr & 0x0F] = value;
            case 6, 7 -> mirror = value & 1;
            case 8, 9 -> ramEnable = value;
            case 0xA, 0xB -> prgRegs[0] = value;
            case 0xC, 0xD -> prgRegs[1] = value;
            default -> prgRegs[2] = value;
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < chrRegs.length; i++) {
            chrRegs[i] = 0;
        }
        for (int i = 0; i < prgRegs.length; i++) {
            prgRegs[i] = 0;
        }
        mirror = 0;
        ramEnable = 0;
    }

    @Override
    protected void updateBanks() {
        prg8(0, prgRegs[0]);
        prg8(1, prgRegs[1]);
        prg8(2, prgRegs[2]);
        prg8(3, -1);
        chr1(0, chrRegs[0] & 0xFE);
        chr1(1, chrRegs[0] | 1);
        chr1(2, chrRegs[1] & 0xFE);
        chr1(3, chrRegs[1] | 1);
        for (int i = 0; i < 4; i++) {
            chr1(4 + i, chrRegs[2 + i]);
        }
        mirroring(mirror == 0 ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        prgRamBank(0, false, false); // the RAM is decoded in cpuRead/cpuWrite
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        ramEnable = s.u8("ramEnable", ramEnable);
    }
}
