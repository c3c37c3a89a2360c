package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/** Mapper 0: NROM-128/256, fixed PRG and CHR, optional PRG-RAM at $6000 (Family BASIC). */
public final class Nrom extends Mapper {
    public Nrom(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000 && addr < 0x8000) {
            writePrgRam(addr, value);
        }
    }

    @Override
    protected void powerOn() {
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        // No registers.
    }
}
