package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;
import lockstep.nes.core.cart.Mirroring;

/**
 * Sunsoft-2 boards. Mapper 89: bits 4-6 the 16 KiB PRG bank at $8000, bits 0-2 and 7 the 8 KiB
 * CHR bank, bit 3 one-screen mirroring. Mapper 93: bits 4-6 the PRG bank, CHR-RAM, hardwired
 * mirroring. $C000 holds the last bank; bus conflicts.
 */
public final class Sunsoft2 extends LatchMapper {
    private final boolean m89;

    public Sunsoft2(Cartridge cart) {
        super(cart, 0, Window.ROM);
        this.m89 = cart.mapperNumber() == 89;
    }

    @Override
    protected void updateBanks() {
        prg16(0, (reg >> 4) & 7);
        prg16(1, -1);
        if (m89) {
            chr8((reg & 7) | ((reg >> 4) & 8));
            mirroring((reg & 8) != 0 ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        } else {
            chr8(0);
            mirroring(cart.mirroring());
        }
        prgRamBank(0, false, false);
    }
}
