package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/**
 * Mapper 184: Sunsoft-1. Writes to $6000-$7FFF: bits 0-2 the 4 KiB CHR bank at $0000, bits 4-6
 * the one at $1000 (whose top bit the board always sets). Fixed 32 KiB PRG.
 */
public final class Sunsoft1 extends Mapper {
    private int reg;

    public Sunsoft1(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000 && addr < 0x8000) {
            reg = value;
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr4(0, reg & 7);
        chr4(1, ((reg >> 4) & 7) | 4);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
