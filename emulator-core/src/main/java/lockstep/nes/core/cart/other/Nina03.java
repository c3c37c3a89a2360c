package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 79 (AVE NINA-03/NINA-06): a register in $4100-$5FFF (A8 set, A13-A15 = 010): bit 3
 * selects a 32 KiB PRG bank, bits 0-2 an 8 KiB CHR bank.
 */
public final class Nina03 extends Mapper {
    private int reg;

    public Nina03(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if ((addr & 0xE100) == 0x4100) {
            reg = value;
            updateBanks();
        } else if (addr >= 0x6000 && addr < 0x8000) {
            writePrgRam(addr, value);
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32((reg >> 3) & 1);
        chr8(reg & 7);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
