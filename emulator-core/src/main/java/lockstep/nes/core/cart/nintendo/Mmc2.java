package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mappers 9 (MMC2, PxROM) and 10 (MMC4, FxROM). Each 4 KiB CHR half has two bank registers
 * ($FD and $FE) and a latch that the PPU flips by fetching tile $FD or $FE: a read of $0FD8 /
 * $0FE8 (MMC2; MMC4 the whole $0FD8-$0FDF / $0FE8-$0FEF) sets latch 0, a read of $1FD8-$1FDF /
 * $1FE8-$1FEF sets latch 1. The switch takes effect after the read that triggers it.
 * PRG: MMC2 an 8 KiB bank at $8000 with the last three fixed; MMC4 a 16 KiB bank at $8000 with
 * the last fixed, and 8 KiB PRG-RAM.
 */
public final class Mmc2 extends Mapper {
    private final boolean mmc4;

    private int prgBank;
    private final int[] chrRegs = new int[4]; // 0: $0000/FD, 1: $0000/FE, 2: $1000/FD, 3: $1000/FE
    private int latch0;
    private int latch1;
    private int mirror;

    public Mmc2(Cartridge cart, boolean mmc4) {
        super(cart, mmc4 ? Math.max(8192, cart.totalPrgRamSize()) : cart.totalPrgRamSize());
        this.mmc4 = mmc4;
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
        switch (addr >> 12) {
            case 0xA -> prgBank = value & 0x0F;
            case 0xB -> chrRegs[0] = value & 0x1F;
            case 0xC -> chrRegs[1] = value & 0x1F;
            case 0xD -> chrRegs[2] = value & 0x1F;
            case 0xE -> chrRegs[3] = value & 0x1F;
            case 0xF -> mirror = value & 1;
            default -> {
                return;
            }
        }
        updateBanks();
    }

    /**
     * The latches switch only the CHR banks the PPU itself reads: nothing the CPU sees follows
     * the PPU bus, so the PPU may run behind the CPU.
     */
    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return Integer.MAX_VALUE;
    }

    @Override
    public int ppuRead(int addr) {
        int value = pagedRead(addr);
        if (addr < 0x2000 && (addr & 0x0FF0) >= 0x0FD0) {
            latch(addr);
        }
        return value;
    }

    private void latch(int addr) {
        int tile = addr & 0x0FF8;
        if (tile != 0x0FD8 && tile != 0x0FE8) {
            return;
        }
        int v = tile == 0x0FD8 ? 0 : 1;
        if (addr >= 0x1000) {
            latch1 = v;
        } else if (mmc4 || (addr & 7) == 0) {
            latch0 = v;
        } else {
            return;
        }
        updateBanks();
    }

    /**
     * The latches are the only fields that change outside writes, and the CHR page tables follow
     * them: the term is cached for each pair of latch levels, with nothing hot besides.
     */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    @Override
    protected boolean hasLineKeyedDigest() {
        return true;
    }

    @Override
    protected int hotDigestLine() {
        return latch0 | latch1 << 1;
    }

    @Override
    protected void powerOn() {
        prgBank = 0;
        for (int i = 0; i < 4; i++) {
            chrRegs[i] = 0;
        }
        latch0 = 1;
        latch1 = 1;
        mirror = 0;
    }

    @Override
    protected void updateBanks() {
        if (mmc4) {
            prg16(0, prgBank);
            prg16(1, -1);
        } else {
            prg8(0, prgBank);
            prg8(1, -3);
            prg8(2, -2);
            prg8(3, -1);
        }
        chr4(0, chrRegs[latch0]);
        chr4(1, chrRegs[2 + latch1]);
        mirroring(mirror == 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL);
        prgRamBank(0, true, true);
    }

    @Override
    protected void registers(StateVisitor s) {
        prgBank = s.u8("prgBank", prgBank);
        s.ints("chrRegs", chrRegs, 0, 0x1F);
        latch0 = s.u8("latch0", latch0, 1);
        latch1 = s.u8("latch1", latch1, 1);
        mirror = s.u8("mirror", mirror, 1);
    }
}
