package lockstep.nes.core.cart.irem;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;
import lockstep.nes.core.cart.Mirroring;

/**
 * Mapper 78: Irem 74HC161/32 (JF-16). Bits 0-2 the 16 KiB PRG bank at $8000 ($C000 is the last),
 * bits 4-7 the 8 KiB CHR bank, bit 3 mirroring: one-screen A/B on Cosmo Carrier (submapper 1),
 * horizontal/vertical on Holy Diver (submapper 3, or an iNES header with the four-screen bit,
 * the old convention for it). Bus conflicts.
 */
public final class Irem78 extends LatchMapper {
    private final boolean holyDiver;

    public Irem78(Cartridge cart) {
        super(cart, 0, Window.ROM);
        this.holyDiver = cart.submapper() == 3 || (!cart.isNes2() && cart.fourScreen());
    }

    @Override
    protected void updateBanks() {
        prg16(0, reg & 7);
        prg16(1, -1);
        chr8(reg >> 4);
        boolean bit = (reg & 8) != 0;
        if (holyDiver) {
            // Horizontal (0) or vertical (1), set directly: the four-screen header bit only marks
            // the board, which uses the console's 2 KiB.
            ntPage[0] = 0;
            ntPage[1] = bit ? 0x400 : 0;
            ntPage[2] = bit ? 0 : 0x400;
            ntPage[3] = 0x400;
        } else {
            mirroring(bit ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        }
        prgRamBank(0, false, false);
    }
}
