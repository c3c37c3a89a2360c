package lockstep.nes.core.cart.other;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 34 submapper 1 (AVE NINA-001): registers at $7FFD (32 KiB PRG bank), $7FFE and $7FFF
 * (4 KiB CHR banks at $0000 and $1000); the writes also reach the 8 KiB PRG-RAM beneath them.
 */
public final class Nina001 extends Mapper {
    private int prgBank;
    private int chr0;
    private int chr1;

    public Nina001(Cartridge cart) {
        super(cart, Math.max(8192, cart.totalPrgRamSize()));
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000 && addr < 0x8000) {
            writePrgRam(addr, value);
            switch (addr) {
                case 0x7FFD -> prgBank = value & 1;
                case 0x7FFE -> chr0 = value & 0x0F;
                case 0x7FFF -> chr1 = value & 0x0F;
                default -> {
                    return;
                }
            }
            updateBanks();
        }
    }

    @Override
    protected void powerOn() {
        prgBank = 0;
        chr0 = 0;
        chr1 = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(prgBank);
        chr4(0, chr0);
        chr4(1, chr1);
        mirroring(cart.mirroring());
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        prgBank = s.u8("prgBank", prgBank);
        chr0 = s.u8("chr0", chr0);
        chr1 = s.u8("chr1", chr1);
    }
}
