package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/** Mapper 34 (BNROM): a 32 KiB PRG bank register at $8000-$FFFF with bus conflicts, CHR-RAM. */
public final class BnRom extends LatchMapper {
    public BnRom(Cartridge cart) {
        super(cart, "bank", true);
    }

    @Override
    protected void updateBanks() {
        prg32(reg);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }
}
