package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 28: Action 53, the homebrew multicart board. A write to $5000-$5FFF selects one of four
 * registers by its bits 7 and 0 ($00, $01, $80, $81); a write to $8000-$FFFF stores into the
 * selected one (no bus conflicts):
 * <ul>
 * <li>$00 CHR bank: bits 0-1 pick the 8 KiB CHR-RAM bank (32 KiB);</li>
 * <li>$01 inner PRG bank: bits 0-3;</li>
 * <li>$80 mode: bits 0-1 nametables (one-screen lower, upper, vertical, horizontal), bits 2-3
 * PRG mode (0/1 32 KiB like BNROM/AOROM, 2 the outer bank's bottom half fixed at $8000 like
 * mapper 180, 3 its top half fixed at $C000 like UNROM), bits 4-5 the game size (32, 64, 128,
 * 256 KiB: how many low bits of the 16 KiB bank number come from the inner bank);</li>
 * <li>$81 outer PRG bank: the 32 KiB bank the game sits in.</li>
 * </ul>
 * In the one-screen modes, bit 4 of a write to $00 or $01 also sets the nametable page (AxROM's
 * mirroring bit); in the vertical and horizontal modes it is ignored.
 *
 * <p>Power-on: the outer bank is $FF and the mode 0, so the last 32 KiB of the ROM (with the
 * menu's vectors in its top 16 KiB) are mapped, as the multicart menus expect.
 */
public final class Action53 extends Mapper {
    private static final int CHR_RAM = 32 * 1024;

    /** The register $8000-$FFFF writes go to: 0-3 for $00, $01, $80, $81. */
    private int select;
    private int chrBank;
    private int innerBank;
    private int mode;
    private int outerBank;

    public Action53(Cartridge cart) {
        super(cart, 0, Math.max(CHR_RAM, cart.chrRamSize() + cart.chrNvramSize()));
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x5000 && addr < 0x6000) {
            select = ((value >> 6) & 2) | (value & 1);
            return;
        }
        if (addr < 0x8000) {
            return;
        }
        switch (select) {
            case 0 -> {
                chrBank = value;
                oneScreenBit(value);
            }
            case 1 -> {
                innerBank = value;
                oneScreenBit(value);
            }
            case 2 -> mode = value;
            default -> outerBank = value;
        }
        updateBanks();
    }

    /** In the one-screen modes, D4 of a $00/$01 write picks the page (mode bit 0). */
    private void oneScreenBit(int value) {
        if ((mode & 2) == 0) {
            mode = (mode & ~1) | ((value >> 4) & 1);
        }
    }

    @Override
    protected void powerOn() {
        select = 0;
        chrBank = 0;
        innerBank = 0;
        mode = 0;
        outerBank = 0xFF;
    }

    @Override
    protected void updateBanks() {
        // 16 KiB bank numbers: the game size says how many low bits come from the inner bank,
        // the rest come from the outer bank (a 32 KiB number, so shifted left once).
        final int innerMask = (2 << ((mode >> 4) & 3)) - 1;
        final int outer = outerBank << 1;
        switch ((mode >> 2) & 3) {
            case 2 -> {
                prg16(0, outer);
                prg16(1, (outer & ~innerMask) | (innerBank & innerMask));
            }
            case 3 -> {
                prg16(0, (outer & ~innerMask) | (innerBank & innerMask));
                prg16(1, outer | 1);
            }
            default -> {
                final int inner = (innerBank << 1) & innerMask;
                prg16(0, (outer & ~innerMask) | inner);
                prg16(1, (outer & ~innerMask) | inner | 1);
            }
        }
        chr8(chrBank & 3);
        switch (mode & 3) {
            case 0 -> mirroring(Mirroring.SINGLE_A);
            case 1 -> mirroring(Mirroring.SINGLE_B);
            case 2 -> mirroring(Mirroring.VERTICAL);
            default -> mirroring(Mirroring.HORIZONTAL);
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        select = s.u8("select", select);
        chrBank = s.u8("chrBank", chrBank);
        innerBank = s.u8("innerBank", innerBank);
        mode = s.u8("mode", mode);
        outerBank = s.u8("outerBank", outerBank);
    }
}
