package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 75: Konami VRC1. $8000, $A000, $C000 8 KiB PRG banks ($E000 is the last); $9000 bit 0
 * mirroring (vertical, horizontal) and bits 1-2 the high bits of the two 4 KiB CHR banks;
 * $E000/$F000 the low four bits of the CHR banks at $0000/$1000.
 */
public final class Vrc1 extends Mapper {
    private final int[] prgRegs = new int[3];
    private int control;
    private int chr0;
    private int chr1;

    public Vrc1(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        switch (addr & 0xF000) {
            case 0x8000 -> prgRegs[0] = value & 0x0F;
            case 0xA000 -> prgRegs[1] = value & 0x0F;
            case 0xC000 -> prgRegs[2] = value & 0x0F;
            case 0x9000 -> control = value & 7;
            case 0xE000 -> chr0 = value & 0x0F;
            case 0xF000 -> chr1 = value & 0x0F;
            default -> {
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 3; i++) {
            prgRegs[i] = 0;
        }
        control = 0;
        chr0 = 0;
        chr1 = 0;
    }

    @Override
    protected void updateBanks() {
        for (int i = 0; i < 3; i++) {
            prg8(i, prgRegs[i]);
        }
        prg8(3, -1);
        chr4(0, chr0 | ((control & 2) << 3));
        chr4(1, chr1 | ((control & 4) << 2));
        if (cart.fourScreen()) {
            mirroring(Mirroring.FOUR_SCREEN);
        } else {
            mirroring((control & 1) != 0 ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("prgRegs", prgRegs, 0, 0x0F);
        control = s.u8("control", control);
        chr0 = s.u8("chr0", chr0);
        chr1 = s.u8("chr1", chr1);
    }
}
