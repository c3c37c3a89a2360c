package lockstep.nes.core.cart.taito;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 33: Taito TC0190. Registers decoded by A15, A13, A1, A0: $8000 bits 0-5 the 8 KiB PRG
 * bank at $8000 and bit 6 mirroring (vertical, horizontal), $8001 the bank at $A000, $8002/$8003
 * 2 KiB CHR banks at $0000/$0800, $A000-$A003 1 KiB CHR banks at $1000-$1C00; the last 16 KiB
 * of PRG is fixed.
 */
public final class TaitoTc0190 extends Mapper {
    private final int[] regs = new int[8];

    public TaitoTc0190(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        switch (addr & 0xE003) {
            case 0x8000 -> regs[0] = value;
            case 0x8001 -> regs[1] = value;
            case 0x8002 -> regs[2] = value;
            case 0x8003 -> regs[3] = value;
            case 0xA000 -> regs[4] = value;
            case 0xA001 -> regs[5] = value;
            case 0xA002 -> regs[6] = value;
            case 0xA003 -> regs[7] = value;
            default -> {
                return;
            }
        }
        updateBanks();
    }

    @Override
    protected void powerOn() {
        for (int i = 0; i < 8; i++) {
            regs[i] = 0;
        }
    }

    @Override
    protected void updateBanks() {
        prg8(0, regs[0] & 0x3F);
        prg8(1, regs[1] & 0x3F);
        prg8(2, -2);
        prg8(3, -1);
        chr2(0, regs[2]);
        chr2(1, regs[3]);
        for (int i = 0; i < 4; i++) {
            chr1(4 + i, regs[4 + i]);
        }
        mirroring((regs[0] & 0x40) != 0 ? Mirroring.HORIZONTAL : Mirroring.VERTICAL);
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("regs", regs, 0, 0xFF);
    }
}
