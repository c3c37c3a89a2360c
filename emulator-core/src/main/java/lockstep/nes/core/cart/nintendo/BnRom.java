package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/** Mapper 34 (BNROM): a 32 KiB PRG bank register at $8000-$FFFF with bus conflicts, CHR-RAM. */
public final class BnRom extends Mapper {
    private int bank;

    public BnRom(Cartridge cart) {
        super(cart);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            bank = busConflict(addr, value);
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
        prg32(bank);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        bank = s.u8("bank", bank);
    }
}
