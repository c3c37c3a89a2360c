package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * One latch: bits 4-5 a 32 KiB PRG bank, the low bits an 8 KiB CHR bank. Two boards differ only
 * in where the latch sits and how many CHR bits it keeps:
 * mapper 66 (GxROM/MHROM) at $8000-$FFFF with CHR bits 0-1, and mapper 140 (Jaleco JF-11/JF-14)
 * at $6000-$7FFF, with no PRG-RAM, and CHR bits 0-3.
 */
public final class GxRom extends Mapper {
    private final int latchStart;
    private final int latchEnd;
    private final int chrMask;

    private int reg;

    private GxRom(Cartridge cart, int prgRamSize, int latchStart, int latchEnd, int chrMask) {
        super(cart, prgRamSize);
        this.latchStart = latchStart;
        this.latchEnd = latchEnd;
        this.chrMask = chrMask;
    }

    /** Mapper 66. */
    public static GxRom gxRom(Cartridge cart) {
        return new GxRom(cart, cart.totalPrgRamSize(), 0x8000, 0xFFFF, 0x03);
    }

    /** Mapper 140. */
    public static GxRom jalecoJf11(Cartridge cart) {
        return new GxRom(cart, 0, 0x6000, 0x7FFF, 0x0F);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= latchStart && addr <= latchEnd) {
            reg = value;
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32((reg >> 4) & 3);
        chr8(reg & chrMask);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
