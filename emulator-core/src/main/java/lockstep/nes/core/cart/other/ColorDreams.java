package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/** Mapper 11: Color Dreams, bits 0-1 a 32 KiB PRG bank, bits 4-7 an 8 KiB CHR bank; bus conflicts. */
public final class ColorDreams extends LatchMapper {
    public ColorDreams(Cartridge cart) {
        super(cart, Window.ROM);
    }

    @Override
    protected void updateBanks() {
        prg32(reg & 3);
        chr8(reg >> 4);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }
}
