package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 232 (Camerica Quattro / BF9096): $8000-$BFFF bits 3-4 pick a 64 KiB outer block,
 * $C000-$FFFF bits 0-1 the 16 KiB bank inside it at $8000; $C000 shows the block's last bank.
 */
public final class Quattro extends Mapper {
    private int outer;
    private int inner;

    public Quattro(Cartridge cart) {
        super(cart, 0);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0xC000) {
            inner = value & 3;
            updateBanks();
        } else if (addr >= 0x8000) {
            outer = (value >> 3) & 3;
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        outer = 0;
        inner = 0;
    }

    @Override
    protected void updateBanks() {
        prg16(0, outer << 2 | inner);
        prg16(1, outer << 2 | 3);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        outer = s.u8("outer", outer);
        inner = s.u8("inner", inner);
    }
}
