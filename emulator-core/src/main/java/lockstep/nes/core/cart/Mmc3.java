package lockstep.nes.core.cart;

import lockstep.nes.state.NotState;

import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 4: MMC3 (TxROM) and MMC6 (HKROM); mapper 118 (TxSROM, nametables chosen by CHR bank
 * bit 7).
 *
 * <p>The scanline counter is clocked by rising edges of PPU A12, filtered through M2: an edge
 * only counts when A12 was low for {@link #A12_LOW_CYCLES} CPU cycles before it, so the short
 * low pulses between fetches of the same half do not count. Revision differences (blargg's
 * mmc3_test readme): the MMC3B (Sharp, "new") sets the IRQ whenever the counter is 0 after a
 * clock; the MMC3A (NEC, "old") and the MMC6 only when it became 0 by a decrement or a
 * $C001 reload, so a latch of 0 gives one IRQ, not one per clock.
 *
 * <p>The counter's only effect the CPU sees between accesses is /IRQ, so the console may run the
 * PPU behind the CPU ({@link #lazyPpuSafe}): A12 edges are timed by the dot they happen on
 * ({@link #busCycles}), and {@link #dotsToBoardEvent} bounds how soon /IRQ could assert.
 */
public final class Mmc3 extends Mapper {
    public enum Revision { MMC3A, MMC3B, MMC6 }

    /** M2 falling edges A12 must stay low for before a rise clocks the counter. */
    static final int A12_LOW_CYCLES = 3;
    /**
     * The fewest PPU dots between two rises that both clock the counter: A12 high for a dot, then
     * low across 3 M2 edges (12 master clocks apart: at least 7 dots of 4), then the rise.
     */
    static final int DOTS_BETWEEN_CLOCKS = 8;

    private final Revision revision;
    private final boolean txsrom;
    private final boolean mmc6;
    /**
     * $A001's PRG-RAM enable/protect bits are obeyed only for NES 2.0 images: iNES files of MMC6
     * games (StarTropics) are marked as plain mapper 4 and write $A001 with MMC6 meanings, which
     * would lock their save RAM (NESdev advises emulators to ignore the bits for iNES mapper 4).
     */
    private final boolean obeyRamProtect;

    private int bankSelect;
    private final int[] regs = new int[8];
    private int mirror;
    private int ramProtect;
    private int irqLatch;
    private int irqCounter;
    private boolean irqReload;
    private boolean irqEnabled;
    private boolean irqLine;
    /** PPU A12 as last seen on the PPU bus: 0 or 0x1000 (described as the boolean "a12"). */
    private final int[] a12Line = new int[1];
    /**
     * busCycles() + cycleOffset = the CPU cycles the board has counted (described as "cycles"; the
     * offset is 0 from power-on and changes only when a state sets another count).
     */
    private long cycleOffset;
    /** The count when A12 last went low (while {@link #fallPending}, not yet worked out). */
    private long a12LowAt;
    /**
     * True when A12 has gone low since {@link #a12LowAt} was last worked out: the fall's time is
     * {@link #fallTime} and a12LowAt is its count. Falls come every 8 dots when both pattern
     * tables are at $1000, and most rises come a few dots after the fall, too soon to count
     * whatever the phase of M2; timing a fall costs no division, and a rise that soon needs no
     * count at all. A cache of a12LowAt, not state.
     */
    @NotState("a12LowAt not yet worked out")
    private boolean fallPending;
    /** The {@link #busTime} of the last fall while {@link #fallPending}. */
    @NotState("a12LowAt not yet worked out")
    private long fallTime;

    public Mmc3(Cartridge cart, Revision revision) {
        this(cart, revision, false);
    }

    public Mmc3(Cartridge cart, Revision revision, boolean txsrom) {
        super(cart, revision == Revision.MMC6 ? 1024 : cart.totalPrgRamSize());
        this.revision = revision;
        this.txsrom = txsrom;
        this.mmc6 = revision == Revision.MMC6;
        this.obeyRamProtect = cart.isNes2();
    }

    public Revision revision() {
        return revision;
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    private long cycles() {
        return busCycles() + cycleOffset;
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    /**
     * /IRQ can only assert on a counter clock that leaves the counter at 0 with IRQs enabled: the
     * counter needs {@code rises} more clocks for that, the first possibly on the next dot and
     * each further one {@link #DOTS_BETWEEN_CLOCKS} later. Left to itself, a PPU that does not
     * render touches no bus; one that renders with backgrounds at $0000 and 8x8 sprites at $1000
     * raises A12 after a long low only at the first sprite fetch (dot 261) of each rendering line.
     */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        if (!irqEnabled || irqLine) {
            return Integer.MAX_VALUE;
        }
        int rises;
        if (irqReload || irqCounter == 0) {
            rises = irqLatch == 0 ? 1 : irqLatch + 1;
        } else {
            rises = irqCounter;
        }
        final int bound = 1 + DOTS_BETWEEN_CLOCKS * (rises - 1);
        if (!ppu.settled()) {
            return bound;
        }
        if (!ppu.renderingEnabled()) {
            return Integer.MAX_VALUE;
        }
        if ((ppu.ctrl() & 0x38) == 0x08) {
            return Math.max(bound, dotsToSpriteFetchRise(ppu.scanline(), ppu.dot(), rises));
        }
        return bound;
    }

    /** Rendering lines in frame order: 0-239, then the pre-render line 261. */
    private static final int RENDER_LINES = 241;
    /** The first sprite pattern fetch of a line. */
    private static final int SPRITE_FETCH_DOT = 261;

    /**
     * Dots from position ({@code line}, {@code dot}) to the {@code n}-th next first sprite pattern
     * fetch of a rendering line, one dot fewer per frame end passed (the odd-frame skip).
     */
    static int dotsToSpriteFetchRise(int line, int dot, int n) {
        final int passed; // rendering lines whose first sprite fetch is at or before the position
        if (line < 240) {
            passed = line + (dot >= SPRITE_FETCH_DOT ? 1 : 0);
        } else if (line < 261) {
            passed = 240;
        } else if (line == 261) {
            passed = 240 + (dot >= SPRITE_FETCH_DOT ? 1 : 0);
        } else {
            return 1;
        }
        final int target = passed + n - 1;
        final int frames = target / RENDER_LINES;
        final int index = target % RENDER_LINES;
        final int targetLine = index < 240 ? index : 261;
        final long d = (long) frames * (262 * 341 - 1) + targetLine * 341 + SPRITE_FETCH_DOT - (line * 341 + dot);
        return (int) Math.max(1, Math.min(d, Integer.MAX_VALUE));
    }

    @Override
    public int cpuRead(int addr) {
        if (mmc6 && addr >= 0x6000 && addr < 0x8000) {
            return mmc6Read(addr);
        }
        return super.cpuRead(addr);
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr < 0x8000) {
            if (addr >= 0x6000) {
                if (mmc6) {
                    mmc6Write(addr, value);
                } else {
                    writePrgRam(addr, value);
                }
            }
            return;
        }
        boolean odd = (addr & 1) != 0;
        switch ((addr >> 13) & 3) {
            case 0 -> {
                if (odd) {
                    regs[bankSelect & 7] = value;
                } else {
                    bankSelect = value;
                    if (mmc6 && (value & 0x20) == 0) {
                        ramProtect = 0;
                    }
                }
            }
            case 1 -> {
                if (odd) {
                    if (!mmc6 || (bankSelect & 0x20) != 0) {
                        ramProtect = value;
                    }
                } else {
                    mirror = value & 1;
                }
            }
            case 2 -> {
                if (odd) {
                    irqCounter = 0;
                    irqReload = true;
                } else {
                    irqLatch = value;
                }
            }
            default -> {
                if (odd) {
                    irqEnabled = true;
                } else {
                    irqEnabled = false;
                    irqLine = false;
                }
            }
        }
        updateBanks();
    }

    // MMC6: 1 KiB inside the chip at $7000-$7FFF (mirrored), two 512-byte halves with their
    // own read/write enables in $A001, all gated by $8000 bit 5.
    private int mmc6Read(int addr) {
        if (addr < 0x7000 || (bankSelect & 0x20) == 0) {
            return OPEN_BUS;
        }
        boolean high = (addr & 0x200) != 0;
        int readBits = ramProtect & 0xA0;
        if (readBits == 0) {
            return OPEN_BUS;
        }
        boolean readable = high ? (ramProtect & 0x80) != 0 : (ramProtect & 0x20) != 0;
        return readable ? prgRam.read(addr & 0x3FF) : 0;
    }

    private void mmc6Write(int addr, int value) {
        if (addr < 0x7000 || (bankSelect & 0x20) == 0) {
            return;
        }
        boolean high = (addr & 0x200) != 0;
        boolean writable = high ? (ramProtect & 0xC0) == 0xC0 : (ramProtect & 0x30) == 0x30;
        if (writable) {
            prgRam.write(addr & 0x3FF, value);
        }
    }

    // ---- A12 watching ---------------------------------------------------------------------

    @Override
    public int ppuRead(int addr) {
        watchA12(addr);
        return super.ppuRead(addr);
    }

    @Override
    public void ppuWrite(int addr, int value) {
        watchA12(addr);
        super.ppuWrite(addr, value);
    }

    @Override
    public void ppuAddress(int addr) {
        watchA12(addr);
    }

    @Override
    protected int[] a12Line() {
        return a12Line;
    }

    private void watchA12(int addr) {
        final int level = addr & 0x1000;
        if (level != a12Line[0]) {
            a12Line[0] = level;
            final long now = busTime(); // one call site: the JIT inlines the clock once here
            if (level != 0) {
                rise(now);
            } else {
                fallTime = now;
                fallPending = true;
            }
        }
    }

    /** The banks do not follow A12: the PPU may tell of a fall and the rise after it at once. */
    @Override
    protected boolean a12Dips() {
        return true;
    }

    /**
     * A12 falls now and rises {@code dots} dots (4 master clocks each) later: the fall's time is
     * noted and the rise works out from it; the level ends high, where it was.
     */
    @Override
    public void a12Dip(int lowAddr, int highAddr, int dots) {
        final long fall = busTime();
        fallTime = fall;
        fallPending = true;
        rise(fall + 4L * dots);
    }

    /** A rise of A12 at bus time {@code now}. */
    private void rise(long now) {
        if (fallPending && now - fallTime <= SHORT_CLOCKS) {
            return; // fewer than A12_LOW_CYCLES M2 edges since the fall
        }
        if (cyclesAt(now) + cycleOffset - a12LowAt() >= A12_LOW_CYCLES) {
            clockCounter();
        }
    }

    /** {@link #a12LowAt}, worked out from the last fall's time if that is still pending. */
    private long a12LowAt() {
        if (fallPending) {
            a12LowAt = cyclesAt(fallTime) + cycleOffset;
            fallPending = false;
        }
        return a12LowAt;
    }

    private void clockCounter() {
        int before = irqCounter;
        if (irqCounter == 0 || irqReload) {
            irqCounter = irqLatch;
        } else {
            irqCounter--;
        }
        boolean fire;
        if (revision == Revision.MMC3B) {
            fire = irqCounter == 0;
        } else {
            fire = irqCounter == 0 && (before != 0 || irqReload);
        }
        irqReload = false;
        if (fire && irqEnabled) {
            irqLine = true;
        }
    }

    // ---- banking --------------------------------------------------------------------------

    @Override
    protected void powerOn() {
        bankSelect = 0;
        regs[0] = 0;
        regs[1] = 2;
        regs[2] = 4;
        regs[3] = 5;
        regs[4] = 6;
        regs[5] = 7;
        regs[6] = 0;
        regs[7] = 1;
        mirror = 0;
        ramProtect = mmc6 ? 0 : 0x80;
        irqLatch = 0;
        irqCounter = 0;
        irqReload = false;
        irqEnabled = false;
        irqLine = false;
        a12Line[0] = 0;
        cycleOffset = -busCycles();
        a12LowAt = 0;
        fallPending = false;
    }

    @Override
    protected void updateBanks() {
        int inv = (bankSelect & 0x80) != 0 ? 4 : 0;
        chr1(inv, regs[0] & 0xFE);
        chr1(inv + 1, regs[0] | 1);
        chr1(inv + 2, regs[1] & 0xFE);
        chr1(inv + 3, regs[1] | 1);
        chr1(inv ^ 4, regs[2]);
        chr1((inv ^ 4) + 1, regs[3]);
        chr1((inv ^ 4) + 2, regs[4]);
        chr1((inv ^ 4) + 3, regs[5]);
        if ((bankSelect & 0x40) != 0) {
            prg8(0, -2);
            prg8(2, regs[6]);
        } else {
            prg8(0, regs[6]);
            prg8(2, -2);
        }
        prg8(1, regs[7]);
        prg8(3, -1);
        if (txsrom) {
            // Each 1 KiB CHR page's bank bit 7 picks the CIRAM page of the matching nametable
            // (in the 2 KiB-bank half, one bit serves two tables).
            for (int i = 0; i < 4; i++) {
                int bank = inv == 0 ? regs[i >> 1] : regs[2 + i];
                ntPage[i] = ((bank >> 7) & 1) << 10;
            }
        } else {
            mirroring(mirror == 0 ? Mirroring.VERTICAL : Mirroring.HORIZONTAL);
        }
        if (!mmc6) {
            boolean enabled = !obeyRamProtect || (ramProtect & 0x80) != 0;
            prgRamBank(0, enabled, enabled && (!obeyRamProtect || (ramProtect & 0x40) == 0));
        }
    }

    /** The A12 watcher's and the cycle counter's fields are the only ones that change outside writes. */
    @Override
    protected boolean hasHotDigestTerm() {
        return true;
    }

    /** Their part of the term: word 9 packs mirror..a12, then cycles and a12LowAt (see registers()). */
    @Override
    protected boolean describesClock() {
        return true;
    }

    @Override
    protected long clockDigestWeight() {
        return digestWeight(10);
    }

    @Override
    protected long hotDigestTerm() {
        return digestWeight(9) * (((irqCounter & 0xFFL) << 4)
                | ((irqReload ? 1L : 0L) << 3)
                | ((irqLine ? 1L : 0L) << 1)
                | (a12Line[0] != 0 ? 1L : 0L))
            + digestWeight(10) * cycles()
            + digestWeight(11) * a12LowAt();
    }

    @Override
    protected void registers(StateVisitor s) {
        bankSelect = s.u8("bankSelect", bankSelect);
        s.ints("regs", regs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        ramProtect = s.u8("ramProtect", ramProtect);
        irqLatch = s.u8("irqLatch", irqLatch);
        irqCounter = s.u8("irqCounter", irqCounter);
        irqReload = s.bool("irqReload", irqReload);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqLine = s.bool("irqLine", irqLine);
        a12Line[0] = s.bool("a12", a12Line[0] != 0) ? 0x1000 : 0;
        final long now = cycles();
        final long lowAt = a12LowAt(); // worked out with the offset it was timed with
        cycleOffset += s.i64("cycles", now, 0, Long.MAX_VALUE) - now;
        a12LowAt = s.i64("a12LowAt", lowAt, 0, Long.MAX_VALUE);
    }
}
