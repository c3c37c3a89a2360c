package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 1: MMC1 (SxROM), and mapper 155 (MMC1A, whose PRG-RAM cannot be disabled).
 *
 * <p>Writes to $8000-$FFFF feed a 5-bit serial shift register (bit 7 set resets it and sets PRG
 * mode 3); the fifth write stores it in the register chosen by A13-A14: control, CHR bank 0,
 * CHR bank 1, PRG bank. A write on the CPU cycle right after another write is ignored (the MMC1
 * sees one long write), which is what read-modify-write instructions produce.
 *
 * <p>Board variants use the upper CHR bank bits when CHR is a single 8 KiB: SUROM/SXROM take bit
 * 4 as the 256 KiB PRG block (512 KiB PRG), SOROM takes bit 3 and SXROM bits 2-3 as the 8 KiB
 * PRG-RAM bank, and SNROM (CHR-RAM, at most 256 KiB PRG) takes bit 4 as a PRG-RAM disable. In
 * 4 KiB CHR mode the register in use is the one PPU A12 selects, so these lines follow A12
 * (Bregalad's MMC1_A12 "WRAM disable scanline counter" test).
 *
 * <p>Watching A12 has no effect the CPU can see except through those lines, so the console may
 * run the PPU behind the CPU ({@link #lazyPpuSafe}) except while they follow A12.
 */
public class Mmc1 extends Mapper {
    private final boolean mmc1a;
    /** SNROM: CHR bank bit 4 disables PRG-RAM. */
    private final boolean snrom;
    /** True when the board uses the upper CHR bits (512 KiB PRG, banked or SNROM PRG-RAM). */
    private final boolean outerLines;

    private int shift;
    private int shiftCount;
    int control;
    int chr0;
    private int chr1;
    int prgReg;
    /**
     * busCycles() + cycleOffset = the CPU cycles the board has counted (described as "cycles"; the
     * offset is 0 from power-on and changes only when a state sets another count).
     */
    private long cycleOffset;
    /** The count at the last serial write. */
    private long lastWrite;
    /** PPU A12 as last seen on the PPU bus: 0 or 0x1000 (described as the boolean "a12"). */
    private final int[] a12Line = new int[1];

    public Mmc1(Cartridge cart, boolean mmc1a) {
        this(cart, mmc1a, true);
    }

    /** {@code boardLines} false: a board that wires the CHR bank bits to something else entirely. */
    Mmc1(Cartridge cart, boolean mmc1a, boolean boardLines) {
        super(cart, defaultRam(cart));
        this.mmc1a = mmc1a;
        this.snrom = boardLines && chrRam != null && chrRam.size() == 8192 && prg.length <= 256 * 1024 && prgRam != null;
        this.outerLines = boardLines && (snrom || prg.length > 256 * 1024 || (prgRam != null && prgRam.size() > 8192));
    }

    private static int defaultRam(Cartridge cart) {
        int size = cart.totalPrgRamSize();
        if (!cart.isNes2() && cart.battery() && cart.prg().length == 512 * 1024 && size <= 8192) {
            return 32768; // an iNES header cannot say SXROM has 32 KiB: give it room
        }
        return size;
    }

    /** The CPU cycles the board has counted since power-on. */
    final long cycles() {
        return busCycles() + cycleOffset;
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.PPU_BUS;
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    /** In 4 KiB CHR mode the outer lines follow A12 under the CPU's PRG reads: stepped with the CPU. */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        return outerLines && (control & 0x10) != 0 ? 1 : Integer.MAX_VALUE;
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                writePrgRam(addr, value);
            }
            return;
        }
        final long now = cycles();
        final long last = lastWrite;
        lastWrite = now;
        if (now == last + 1) {
            return;
        }
        if ((value & 0x80) != 0) {
            shift = 0;
            shiftCount = 0;
            control |= 0x0C;
            updateBanks();
            return;
        }
        shift |= (value & 1) << shiftCount;
        if (++shiftCount < 5) {
            return;
        }
        switch ((addr >> 13) & 3) {
            case 0 -> control = shift;
            case 1 -> chr0 = shift;
            case 2 -> chr1 = shift;
            default -> prgReg = shift;
        }
        shift = 0;
        shiftCount = 0;
        registerWritten(now);
        updateBanks();
    }

    /** A serial write completed a register at cycle count {@code now} (for boards built on the MMC1). */
    void registerWritten(long now) {
    }

    /** Also reached through {@link Mapper#ppuRead} and {@link Mapper#ppuWrite} ({@link #a12Line}). */
    @Override
    public void ppuAddress(int addr) {
        final int level = addr & 0x1000;
        if (level != a12Line[0]) {
            a12Line[0] = level;
            if (outerLines && (control & 0x10) != 0) {
                updateBanks();
            }
        }
    }

    @Override
    protected int[] a12Line() {
        return a12Line;
    }

    @Override
    protected void powerOn() {
        shift = 0;
        shiftCount = 0;
        control = 0x0C;
        chr0 = 0;
        chr1 = 0;
        prgReg = 0;
        cycleOffset = -busCycles();
        lastWrite = -2;
        a12Line[0] = 0;
    }

    @Override
    protected void updateBanks() {
        // The CHR register whose upper bits drive the board's extra lines.
        int outer = (control & 0x10) != 0 && a12Line[0] != 0 ? chr1 : chr0;
        int block = prg.length > 256 * 1024 ? outer & 0x10 : 0;
        int bank = prgReg & 0x0F;
        switch ((control >> 2) & 3) {
            case 0, 1 -> {
                prg16(0, block | (bank & 0x0E));
                prg16(1, block | (bank & 0x0E) | 1);
            }
            case 2 -> {
                prg16(0, block);
                prg16(1, block | bank);
            }
            default -> {
                prg16(0, block | bank);
                prg16(1, block | 0x0F);
            }
        }
        if ((control & 0x10) != 0) {
            chr4(0, chr0);
            chr4(1, chr1);
        } else {
            chr4(0, chr0 & 0x1E);
            chr4(1, chr0 | 1);
        }
        mirroringFromControl();
        int ramBank = 0;
        if (prgRam != null && prgRam.size() >= 32768) {
            ramBank = (outer >> 2) & 3;
        } else if (prgRam != null && prgRam.size() >= 16384) {
            ramBank = (outer >> 3) & 1;
        }
        boolean enabled = (mmc1a || (prgReg & 0x10) == 0) && !(snrom && (outer & 0x10) != 0);
        prgRamBank(ramBank, enabled, enabled);
    }

    /** Control bits 0-1: one-screen A, one-screen B, vertical, horizontal. */
    final void mirroringFromControl() {
        switch (control & 3) {
            case 0 -> mirroring(Mirroring.SINGLE_A);
            case 1 -> mirroring(Mirroring.SINGLE_B);
            case 2 -> mirroring(Mirroring.VERTICAL);
            default -> mirroring(Mirroring.HORIZONTAL);
        }
    }

    /**
     * The cycle counter and A12 are the only fields that change outside writes, and the page
     * tables where A12 switches the outer bank lines: those follow A12 alone between writes.
     */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    @Override
    protected boolean hasLineKeyedDigest() {
        return outerLines;
    }

    @Override
    protected int hotDigestLine() {
        return a12Line[0] >> 12;
    }

    /** Their part of the term: word 1 is cycles, word 3 packs a12 alone (see registers()). */
    @Override
    protected boolean describesClock() {
        return true;
    }

    @Override
    protected long clockDigestWeight() {
        return digestWeight(1);
    }

    @Override
    protected long hotDigestTerm() {
        return digestWeight(1) * cycles() + digestWeight(3) * (a12High() ? 1L : 0L);
    }

    /** PPU A12 as last seen (the described "a12"). */
    final boolean a12High() {
        return a12Line[0] != 0;
    }

    @Override
    protected void registers(StateVisitor s) {
        shift = s.u8("shift", shift);
        shiftCount = s.u8("shiftCount", shiftCount);
        control = s.u8("control", control);
        chr0 = s.u8("chr0", chr0);
        chr1 = s.u8("chr1", chr1);
        prgReg = s.u8("prgReg", prgReg);
        final long now = cycles();
        cycleOffset += s.i64("cycles", now, 0, Long.MAX_VALUE) - now;
        lastWrite = s.i64("lastWrite", lastWrite, -2, Long.MAX_VALUE);
        a12Line[0] = s.bool("a12", a12Line[0] != 0) ? 0x1000 : 0;
    }
}
