package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/** Mapper 140 (Jaleco JF-11/JF-14): writes to $6000-$7FFF, bits 4-5 a 32 KiB PRG bank, bits 0-3 an 8 KiB CHR bank. */
public final class JalecoJf11 extends Mapper {
    private int reg;

    public JalecoJf11(Cartridge cart) {
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
        prg32((reg >> 4) & 3);
        chr8(reg & 0x0F);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
