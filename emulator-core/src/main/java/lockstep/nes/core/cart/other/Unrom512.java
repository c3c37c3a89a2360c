package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 30: UNROM 512 (RetroUSB, InfiniteNESLives, Broke Studio). One register, {@code MCCPPPPP}:
 * P the 16 KiB PRG bank at $8000 (the last bank is fixed at $C000), C the 8 KiB CHR-RAM bank
 * (32 KiB unless an NES 2.0 header says otherwise), M the nametable bit. Header byte 6 bits 3 and
 * 0 pick the nametables: 0 horizontal, 1 vertical, 8 one-screen chosen by M, 9 four-screen
 * (kept in the board's own 4 KiB; the InfiniteNESLives board puts those tables in CHR-RAM, which
 * is not modelled). Submapper 3 instead has M choose vertical (0) or horizontal (1).
 *
 * <p>Where the register sits and whether the ROM fights the write (NES 2.0 submapper): 0 with
 * the battery bit clear, and 2, have bus conflicts and decode the register in all of
 * $8000-$FFFF; 0 with the battery bit (the self-flashable board), 1, 3 and 4 have none, and a
 * board with the battery bit decodes the register only at $C000-$FFFF, $8000-$BFFF being the
 * flash chip's command port. The flash commands (sector erase, byte program) are not modelled:
 * those writes are ignored and the PRG stays as loaded. Submapper 4's LED register is not
 * modelled either.
 */
public final class Unrom512 extends Mapper {
    private static final int CHR_RAM = 32 * 1024;

    /** Nametable arrangements chosen by the header and submapper. */
    private enum Nametables { HORIZONTAL, VERTICAL, ONE_SCREEN, FOUR_SCREEN, SWITCHABLE_HV }

    private final boolean busConflicts;
    /** True when $8000-$BFFF is the flash chip's port, not the register (battery bit set). */
    private final boolean flashable;
    private final Nametables nametables;
    private int reg;

    public Unrom512(Cartridge cart) {
        super(cart, 0, cart.isNes2() && cart.chrRamSize() + cart.chrNvramSize() > 0
                ? cart.chrRamSize() + cart.chrNvramSize() : CHR_RAM);
        int sub = cart.submapper();
        this.busConflicts = sub == 2 || (sub == 0 && !cart.battery());
        this.flashable = cart.battery() && sub != 2;
        if (sub == 3) {
            nametables = Nametables.SWITCHABLE_HV;
        } else if (cart.fourScreen()) {
            nametables = cart.headerBit0() ? Nametables.FOUR_SCREEN : Nametables.ONE_SCREEN;
        } else {
            nametables = cart.mirroring() == Mirroring.VERTICAL ? Nametables.VERTICAL : Nametables.HORIZONTAL;
        }
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000 || (flashable && addr < 0xC000)) {
            return; // nothing below $8000; flash commands at $8000-$BFFF are not modelled
        }
        reg = busConflicts ? busConflict(addr, value) : value;
        updateBanks();
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg16(0, reg & 0x1F);
        prg16(1, -1);
        chr8((reg >> 5) & 3);
        final int m = (reg >> 7) & 1;
        switch (nametables) {
            case HORIZONTAL -> mirroring(Mirroring.HORIZONTAL);
            case VERTICAL -> mirroring(Mirroring.VERTICAL);
            case FOUR_SCREEN -> mirroring(Mirroring.FOUR_SCREEN);
            case SWITCHABLE_HV -> mirroring(m == 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL);
            case ONE_SCREEN -> {
                // The header's four-screen bit gave this board 4 KiB of CIRAM: use its first two pages.
                for (int i = 0; i < 4; i++) {
                    ntPage[i] = m << 10;
                }
            }
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
