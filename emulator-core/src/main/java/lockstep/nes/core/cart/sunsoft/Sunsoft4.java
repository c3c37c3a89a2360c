package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 68: Sunsoft-4. Registers by A14-A12: $8000-$B000 2 KiB CHR banks at $0000-$1800;
 * $C000/$D000 the two CHR-ROM nametable banks (1 KiB units, bit 7 always set: the upper 128 KiB
 * of CHR); $E000 bits 0-1 nametable arrangement (vertical, horizontal, one-screen A, B) and bit 4
 * nametables from CHR-ROM instead of CIRAM; $F000 bits 0-3 the 16 KiB PRG bank at $8000 ($C000 is
 * the last bank) and bit 4 PRG-RAM enable.
 *
 * <p>With bit 4 of $E000 set, each nametable reads the CHR-ROM bank of the nametable register
 * the arrangement picks for it (the one CIRAM page it would use: 0 or 1), and writes to it go
 * nowhere. The board watches the PPU bus for that, but has no timed events, so the PPU may run
 * behind the CPU ({@link #lazyPpuSafe}). Nantettatte!! Baseball's licensing timer and external
 * ROM slot (bit 3 of $F000) are not modelled: bit 3 is a plain bank bit.
 */
public final class Sunsoft4 extends Mapper {
    private final int[] chrRegs = new int[4];
    private final int[] ntRegs = new int[2];
    private int control;
    private int prgReg;

    public Sunsoft4(Cartridge cart) {
        super(cart, Math.max(8192, cart.totalPrgRamSize()));
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.PPU_BUS;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        switch ((addr >> 12) & 7) {
            case 0, 1, 2, 3 -> chrRegs[(addr >> 12) & 3] = value;
            case 4 -> ntRegs[0] = value | 0x80;
            case 5 -> ntRegs[1] = value | 0x80;
            case 6 -> control = value;
            default -> prgReg = value;
        }
        updateBanks();
    }

    // ---- CHR-ROM nametables -----------------------------------------------------------------

    /** This board's PPU reads change nothing: a peek is a read. */
    @Override
    public int ppuPeek(int addr) {
        return ppuRead(addr);
    }

    @Override
    public int ppuRead(int addr) {
        if (addr >= 0x2000 && (control & 0x10) != 0) {
            // ntPage holds the CIRAM page (0 or 1) the arrangement gives this table.
            final int bank = ntRegs[(ntPage[(addr >> 10) & 3] >> 10) & 1] % chrBanks;
            final int i = (bank << 10) | (addr & 0x3FF);
            return chrRam == null ? chr[i] & 0xFF : chrRam.read(i);
        }
        return pagedRead(addr);
    }

    @Override
    public void ppuWrite(int addr, int value) {
        if (addr >= 0x2000 && (control & 0x10) != 0) {
            return; // ROM
        }
        super.ppuWrite(addr, value);
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    /** Nothing the CPU sees follows the PPU. */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return Integer.MAX_VALUE;
    }

    /** No field changes outside writes (the PPU hooks only read): the cached term holds. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    // ---- banking --------------------------------------------------------------------------

    @Override
    protected void powerOn() {
        for (int i = 0; i < 4; i++) {
            chrRegs[i] = 0;
        }
        ntRegs[0] = 0x80;
        ntRegs[1] = 0x80;
        control = 0;
        prgReg = 0;
    }

    @Override
    protected void updateBanks() {
        prg16(0, prgReg & 0x0F);
        prg16(1, -1);
        for (int i = 0; i < 4; i++) {
            chr2(i, chrRegs[i]);
        }
        mirroring(Mirroring.vhab(control & 3));
        final boolean ram = (prgReg & 0x10) != 0;
        prgRamBank(0, ram, ram);
    }

    @Override
    protected void registers(StateVisitor s) {
        s.ints("chrRegs", chrRegs, 0, 0xFF);
        s.ints("ntRegs", ntRegs, 0x80, 0xFF);
        control = s.u8("control", control);
        prgReg = s.u8("prgReg", prgReg);
    }
}
