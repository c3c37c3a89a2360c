package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/** Mapper 11: Color Dreams, bits 0-1 a 32 KiB PRG bank, bits 4-7 an 8 KiB CHR bank; bus conflicts. */
public final class ColorDreams extends Mapper {
    private int reg;

    public ColorDreams(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            reg = busConflict(addr, value);
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(reg & 3);
        chr8(reg >> 4);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
