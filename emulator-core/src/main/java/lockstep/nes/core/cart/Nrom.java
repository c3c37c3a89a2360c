package lockstep.nes.core.cart;

import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/** Mapper 0: NROM-128/256, fixed PRG and CHR, optional PRG-RAM at $6000. */
public final class Nrom extends Mapper {
    private final byte[] prg;
    private final int prgMask;
    private final byte[] chrRom;
    private final Memory chrRam;
    private final Memory prgRam;

    public Nrom(Cartridge cart) {
        super(cart);
        this.prg = cart.prg();
        this.prgMask = prg.length - 1;
        this.chrRom = cart.chr();
        this.chrRam = chrRom.length == 0 ? new Memory("chrRam", Memory.CHR_RAM, 8192) : null;
        this.prgRam = new Memory("prgRam", Memory.PRG_RAM, 8192);
    }

    @Override
    public int cpuRead(int addr) {
        if (addr >= 0x8000) {
            return prg[addr & prgMask] & 0xFF;
        }
        if (addr >= 0x6000) {
            return prgRam.read(addr & 0x1FFF);
        }
        return OPEN_BUS;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000 && addr < 0x8000) {
            prgRam.write(addr & 0x1FFF, value);
        }
    }

    @Override
    public int ppuRead(int addr) {
        if (addr < 0x2000) {
            return chrRam != null ? chrRam.read(addr) : chrRom[addr] & 0xFF;
        }
        return ciram.read(ciramIndex(addr));
    }

    @Override
    public void ppuWrite(int addr, int value) {
        if (addr < 0x2000) {
            if (chrRam != null) {
                chrRam.write(addr, value);
            }
        } else {
            ciram.write(ciramIndex(addr), value);
        }
    }

    private int ciramIndex(int addr) {
        return (cart.mirroring().page((addr >> 10) & 3) << 10) | (addr & 0x3FF);
    }

    @Override
    public void state(StateVisitor s) {
        super.state(s);
        prgRam.state(s);
        if (chrRam != null) {
            chrRam.state(s);
        }
    }
}
