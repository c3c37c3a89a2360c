package lockstep.nes.core.cart.jaleco;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/** Mapper 87 (Jaleco J87 and kin): writes to $6000-$7FFF select an 8 KiB CHR bank, bits 0 and 1 swapped. */
public final class Jaleco87 extends LatchMapper {
    public Jaleco87(Cartridge cart) {
        super(cart, 0, Window.LOW);
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr8(((reg & 1) << 1) | ((reg >> 1) & 1));
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }
}
