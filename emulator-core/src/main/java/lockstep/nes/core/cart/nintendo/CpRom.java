package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/** Mapper 13: CPROM, 16 KiB CHR-RAM: $0000 the first 4 KiB, $1000 the bank in bits 0-1; bus conflicts. */
public final class CpRom extends Mapper {
    private int bank;

    public CpRom(Cartridge cart) {
        super(cart, 0, 16384);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            bank = busConflict(addr, value) & 3;
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        bank = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr4(0, 0);
        chr4(1, bank);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        bank = s.u8("bank", bank);
    }
}
