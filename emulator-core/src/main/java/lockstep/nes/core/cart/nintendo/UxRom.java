package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.LatchMapper;

/**
 * Mappers 2 (UNROM/UOROM), 94 (UN1ROM) and 180 (UNROM with the fixed bank at $8000): one
 * 16 KiB bank register written anywhere in $8000-$FFFF, CHR-RAM, hardwired mirroring.
 * NES 2.0 submapper 2 marks boards with bus conflicts.
 */
public final class UxRom extends LatchMapper {
    public enum Variant { UNROM, UN1ROM, UNROM_180 }

    private final Variant variant;

    public UxRom(Cartridge cart, Variant variant) {
        super(cart, "bank", cart.submapper() == 2);
        this.variant = variant;
    }

    @Override
    protected void updateBanks() {
        switch (variant) {
            case UNROM -> {
                prg16(0, reg);
                prg16(1, -1);
            }
            case UN1ROM -> {
                prg16(0, reg >> 2);
                prg16(1, -1);
            }
            case UNROM_180 -> {
                prg16(0, 0);
                prg16(1, reg);
            }
        }
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }
}
