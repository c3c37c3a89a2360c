package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/** Mapper 3: CNROM, fixed PRG and an 8 KiB CHR bank register; submapper 2 has bus conflicts. */
public final class CnRom extends Mapper {
    private final boolean busConflicts;
    private int bank;

    public CnRom(Cartridge cart) {
        super(cart);
        this.busConflicts = cart.submapper() == 2;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            bank = busConflicts ? busConflict(addr, value) : value;
            updateBanks();
        } else if (addr >= 0x6000) {
            writePrgRam(addr, value);
        }
    }

    @Override
    protected void powerOn() {
        bank = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr8(bank);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        bank = s.u8("bank", bank);
    }
}
