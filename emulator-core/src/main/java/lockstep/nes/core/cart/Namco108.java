package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/**
 * Mapper 206: Namco 108/118 (DxROM), the MMC3's predecessor: $8000 selects a register, $8001
 * writes it (R0-R1 2 KiB CHR at $0000, R2-R5 1 KiB CHR at $1000, R6-R7 8 KiB PRG at $8000 and
 * $A000, the last 16 KiB fixed). No IRQ, no mode bits, hardwired mirroring.
 */
public final class Namco108 extends Mapper {
    private int select;
    private final int[] regs = new int[8];

    public Namco108(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000 && addr < 0xA000) {
            if ((addr & 1) == 0) {
                select = value & 7;
            } else {
                regs[select] = value & 0x3F;
                updateBanks();
            }
        }
    }

    @Override
    protected void powerOn() {
        select = 0;
        for (int i = 0; i < 8; i++) {
            regs[i] = 0;
        }
    }

    @Override
    protected void updateBanks() {
        chr2(0, regs[0] >> 1);
        chr2(1, regs[1] >> 1);
        chr1(4, regs[2]);
        chr1(5, regs[3]);
        chr1(6, regs[4]);
        chr1(7, regs[5]);
        prg8(0, regs[6] & 0x0F);
        prg8(1, regs[7] & 0x0F);
        prg8(2, -2);
        prg8(3, -1);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        select = s.u8("select", select);
        s.ints("regs", regs);
    }
}
