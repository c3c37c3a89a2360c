package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 7: AxROM, a 32 KiB PRG bank (bits 0-2) and one-screen mirroring chosen by bit 4,
 * CHR-RAM. Submapper 2 (AMROM) has bus conflicts.
 */
public final class AxRom extends Mapper {
    private final boolean busConflicts;
    private int reg;

    public AxRom(Cartridge cart) {
        super(cart);
        this.busConflicts = cart.submapper() == 2;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            reg = busConflicts ? busConflict(addr, value) : value;
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(reg & 0x0F);
        chr8(0);
        mirroring((reg & 0x10) != 0 ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
