package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 185: CNROM whose register is a CHR enable (copy protection): CHR reads return $FF
 * unless the written value matches the board's diode key. Submappers 4-7 give the key (bits
 * 0-1 = 0, 1, 2, 3); without one, the usual rule: enabled when the low nibble is non-zero and
 * the value is not $13 (the check "Seicross" makes).
 */
public final class CnRomProtect extends Mapper {
    private int reg;

    public CnRomProtect(Cartridge cart) {
        super(cart, 0);
    }

    private boolean chrEnabled() {
        int sub = cart.submapper();
        if (sub >= 4 && sub <= 7) {
            return (reg & 3) == sub - 4;
        }
        return (reg & 0x0F) != 0 && reg != 0x13;
    }

    /** CHR reads change nothing: the PPU may run behind the CPU. */
    @Override
    protected int declaredHooks() {
        return BoardHooks.PPU_BUS;
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return Integer.MAX_VALUE;
    }

    /** This board's PPU reads change nothing: a peek is a read. */
    @Override
    public int ppuPeek(int addr) {
        return ppuRead(addr);
    }

    @Override
    public int ppuRead(int addr) {
        if (addr < 0x2000 && !chrEnabled()) {
            return 0xFF;
        }
        return pagedRead(addr);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x8000) {
            reg = busConflict(addr, value);
        }
    }

    @Override
    protected void powerOn() {
        reg = 0;
    }

    @Override
    protected void updateBanks() {
        prg32(0);
        chr8(0);
        mirroring(cart.mirroring());
        prgRamBank(0, false, false);
    }

    @Override
    protected void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
