package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * Mappers 2 (UNROM/UOROM), 94 (UN1ROM) and 180 (UNROM with the fixed bank at $8000): one
 * 16 KiB bank register written anywhere in $8000-$FFFF, CHR-RAM, hardwired mirroring.
 * NES 2.0 submapper 2 marks boards with bus conflicts.
 */
public final class UxRom extends Mapper {
    public enum Variant { UNROM, UN1ROM, UNROM_180 }

    private final Variant variant;
    private final boolean busConflicts;
    private int bank;

    public UxRom(Cartridge cart, Variant variant) {
        super(cart);
        this.variant = variant;
        this.busConflicts = cart.submapper() == 2;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            bank = busConflicts ? busConflict(addr, value) : value;
            updateBanks();
        } else if (addr >= 0x6000) {
            writePrgRam(addr, value);
        }
    }

    @Override
    protected void powerOn() {
        bank = 0;
    }

    @Override
    protected void updateBanks() {
        switch (variant) {
            case UNROM -> {
                prg16(0, bank);
                prg16(1, -1);
            }
            case UN1ROM -> {
                prg16(0, bank >> 2);
                prg16(1, -1);
            }
            case UNROM_180 -> {
                prg16(0, 0);
                prg16(1, bank);
            }
        }
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        bank = s.u8("bank", bank);
    }
}
