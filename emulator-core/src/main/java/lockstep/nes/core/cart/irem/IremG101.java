package lockstep.nes.core.cart.irem;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 32: Irem G-101. $8000-$8FFF the 8 KiB PRG bank at $8000 (or $C000 in mode 1),
 * $9000-$9FFF bit 0 mirroring (vertical, horizontal) and bit 1 the PRG mode, $A000-$AFFF the bank
 * at $A000, $B000-$B007 eight 1 KiB CHR banks; the other of $8000/$C000 holds the second-to-last
 * bank, $E000 the last. Submapper 1 (Major League) is wired for one-screen mirroring.
 */
public final class IremG101 extends Mapper {
    private int prg0;
    private int prg1;
    private int control;
    private final int[] chrRegs = new int[8];

    public IremG101(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        switch (addr & 0xF000) {
            case 0x8000 -> prg0 = value & 0x1F;
            case 0x9000 -> control = value & 3;
            case 0xA000 -> prg1 = value & 0x1F;
            case 0xB000 -> chrRegs[addr & 7] = value;
            default -> {
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        prg0 = 0;
        prg1 = 0;
        control = 0;
        for (int i = 0; i < 8; i++) {
            chrRegs[i] = 0;
        }
    }

    @Override
    protected void updateBanks() {
        if ((control & 2) != 0) {
            prg8(0, -2);
            prg8(2, prg0);
        } else {
            prg8(0, prg0);
            prg8(2, -2);
        }
        prg8(1, prg1);
        prg8(3, -1);
        for (int i = 0; i < 8; i++) {
            chr1(i, chrRegs[i]);
        }
        if (cart.submapper() == 1) {
            mirroring(Mirroring.SINGLE_A);
        } else {
            mirroring((control & 1) != 0 ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        }
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        prg0 = s.u8("prg0", prg0);
        prg1 = s.u8("prg1", prg1);
        control = s.u8("control", control);
        s.ints("chrRegs", chrRegs, 0, 0xFF);
    }
}
