package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/** Mapper 3: CNROM, fixed PRG and an 8 KiB CHR bank register; submapper 2 has bus conflicts. */
public final class CnRom extends LatchMapper {
    public CnRom(Cartridge cart) {
        super(cart, "bank", cart.submapper() == 2);
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr8(reg);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }
}
