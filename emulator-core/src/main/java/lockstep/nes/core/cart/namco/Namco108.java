package lockstep.nes.core.cart.namco;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 206: Namco 108/118 (DxROM), the MMC3's predecessor: $8000 selects a register, $8001
 * writes it (R0-R1 2 KiB CHR at $0000, R2-R5 1 KiB CHR at $1000, R6-R7 8 KiB PRG at $8000 and
 * $A000, the last 16 KiB fixed). No IRQ, no mode bits, hardwired mirroring. Board variants:
 * 88 (CHR A16 tied to PPU A12: the $0000 half uses banks 0-63, the $1000 half 64-127),
 * 154 (88 plus one-screen mirroring from bit 6 of any write), 95 (NT A10 from bit 5 of R0/R1),
 * 76 (four 2 KiB CHR banks from R2-R5).
 */
public final class Namco108 extends Mapper {
    private final int variant;
    private int select;
    private int mirror;
    private final int[] regs = new int[8];

    public Namco108(Cartridge cart) {
        super(cart, 0);
        this.variant = cart.mapperNumber();
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000 && addr < 0xA000) {
            if ((addr & 1) == 0) {
                select = value & 7;
            } else {
                regs[select] = value & 0x3F;
            }
            if (variant == 154) {
                mirror = (value >> 6) & 1;
            }
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        select = 0;
        mirror = 0;
        for (int i = 0; i < 8; i++) {
            regs[i] = 0;
        }
    }

    @Override
    protected void updateBanks() {
        if (variant == 76) {
            for (int i = 0; i < 4; i++) {
                chr2(i, regs[2 + i]);
            }
        } else {
            int high = variant == 88 || variant == 154 ? 0x40 : 0;
            int low = variant == 95 ? 0x1F : 0x3F;
            chr2(0, (regs[0] & low) >> 1);
            chr2(1, (regs[1] & low) >> 1);
            for (int i = 0; i < 4; i++) {
                chr1(4 + i, regs[2 + i] | high);
            }
        }
        prg8(0, regs[6] & 0x0F);
        prg8(1, regs[7] & 0x0F);
        prg8(2, -2);
        prg8(3, -1);
        if (variant == 154) {
            mirroring(mirror != 0 ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        } else if (variant == 95) {
            // CHR bank bit 5 of the 2 KiB register covering each nametable drives CIRAM A10.
            ntPage[0] = ((regs[0] >> 5) & 1) << 10;
            ntPage[1] = ntPage[0];
            ntPage[2] = ((regs[1] >> 5) & 1) << 10;
            ntPage[3] = ntPage[2];
        } else {
            mirroring(cart.mirroring());
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        select = s.u8("select", select, 7);
        mirror = s.u8("mirror", mirror);
        s.ints("regs", regs, 0, 0x3F);
    }
}
