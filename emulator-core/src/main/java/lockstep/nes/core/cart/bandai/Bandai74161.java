package lockstep.nes.core.cart.bandai;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;
import lockstep.nes.core.cart.Mirroring;

/**
 * Mappers 70 and 152: Bandai's 74161 boards. Bits 4-6 (70: 4-7) the 16 KiB PRG bank at $8000
 * ($C000 is the last), bits 0-3 the 8 KiB CHR bank; mapper 152 adds one-screen mirroring in
 * bit 7. Bus conflicts.
 */
public final class Bandai74161 extends LatchMapper {
    private final boolean oneScreen;

    public Bandai74161(Cartridge cart) {
        super(cart, 0, Window.ROM);
        this.oneScreen = cart.mapperNumber() == 152;
    }

    @Override
    protected void updateBanks() {
        prg16(0, oneScreen ? (reg >> 4) & 7 : reg >> 4);
        prg16(1, -1);
        chr8(reg & 0x0F);
        if (oneScreen) {
            mirroring((reg & 0x80) != 0 ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        } else {
            mirroring(cart.mirroring());
        }
        prgRamBank(0, false, false);
    }
}
