package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 71 (Camerica/Codemasters BF909x): $C000-$FFFF selects the 16 KiB bank at $8000 ($C000
 * is fixed to the last bank). The BF9097 (Fire Hawk, submapper 1) also has one-screen mirroring
 * selected by bit 4 of writes to $8000-$9FFF; without a submapper, the first write to
 * $9000-$9FFF (which only BF9097 games make) switches that register on.
 */
public final class Camerica extends Mapper {
    private int bank;
    private int mirror;
    private boolean bf9097;

    public Camerica(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0xC000) {
            bank = value;
            updateBanks();
        } else if (addr >= 0x8000 && addr < 0xA000) {
            if (addr >= 0x9000 && cart.submapper() == 0) {
                bf9097 = true;
            }
            if (bf9097 || cart.submapper() == 1) {
                mirror = (value >> 4) & 1;
                updateBanks();
            }
        }
    }

    @Override
    protected void powerOn() {
        bank = 0;
        mirror = 0;
        bf9097 = cart.submapper() == 1;
    }

    @Override
    protected void updateBanks() {
        prg16(0, bank);
        prg16(1, -1);
        chr8(0);
        if (bf9097) {
            mirroring(mirror != 0 ? Mirroring.SINGLE_B : Mirroring.SINGLE_A);
        } else {
            mirroring(cart.mirroring());
        }
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        bank = s.u8("bank", bank);
        mirror = s.u8("mirror", mirror);
        bf9097 = s.bool("bf9097", bf9097);
    }
}
