package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/** Mapper 66: GxROM/MHROM, bits 4-5 a 32 KiB PRG bank, bits 0-1 an 8 KiB CHR bank. */
public final class GxRom extends Mapper {
    private int reg;

    public GxRom(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
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
        chr8(reg & 3);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
