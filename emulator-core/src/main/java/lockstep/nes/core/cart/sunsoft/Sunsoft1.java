package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/**
 * Mapper 184: Sunsoft-1. Writes to $6000-$7FFF: bits 0-2 the 4 KiB CHR bank at $0000, bits 4-6
 * the one at $1000 (whose top bit the board always sets). Fixed 32 KiB PRG.
 */
public final class Sunsoft1 extends LatchMapper {
    public Sunsoft1(Cartridge cart) {
        super(cart, 0, Window.LOW);
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr4(0, reg & 7);
        chr4(1, ((reg >> 4) & 7) | 4);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }
}
