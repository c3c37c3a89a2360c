package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/** Mapper 87 (Jaleco J87 and kin): writes to $6000-$7FFF select an 8 KiB CHR bank, bits 0 and 1 swapped. */
public final class Jaleco87 extends Mapper {
    private int reg;

    public Jaleco87(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000 && addr < 0x8000) {
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
        prg32(0);
        chr8(((reg & 1) << 1) | ((reg >> 1) & 1));
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
