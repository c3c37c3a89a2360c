package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.part.A12Filter;
import lockstep.nes.core.cart.part.Mmc3IrqCounter;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 4: MMC3 (TxROM) and MMC6 (HKROM); mapper 118 (TxSROM, nametables chosen by CHR bank
 * bit 7).
 *
 * <p>The scanline counter ({@link Mmc3IrqCounter}, where the revisions differ) is clocked by
 * rising edges of PPU A12 filtered through M2 ({@link A12Filter}).
 *
 * <p>The counter's only effect the CPU sees between accesses is /IRQ, so the console may run the
 * PPU behind the CPU ({@link #lazyPpuSafe}): A12 edges are timed by the dot they happen on
 * ({@link #busCycles}), and {@link #dotsToBoardEvent} bounds how soon /IRQ could assert.
 */
public final class Mmc3 extends Mapper {
    public enum Revision { MMC3A, MMC3B, MMC6 }

    private final Revision revision;
    private final boolean txsrom;
    /** TQROM: bank values with bit 6 set pick 1 KiB pages of the board's 8 KiB CHR-RAM instead of CHR-ROM. */
    private final boolean tqrom;
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
    private final Mmc3IrqCounter counter;
    private boolean irqEnabled;
    private boolean irqLine;
    private final A12Filter a12 = new A12Filter();

    public Mmc3(Cartridge cart, Revision revision) {
        this(cart, revision, false);
    }

    public Mmc3(Cartridge cart, Revision revision, boolean txsrom) {
        this(cart, revision, txsrom, false);
    }

    /** Mapper 119: TQROM, an MMC3 with 8 KiB of CHR-RAM beside its CHR-ROM. */
    public static Mmc3 tqrom(Cartridge cart) {
        return new Mmc3(cart, Revision.MMC3B, false, true);
    }

    private Mmc3(Cartridge cart, Revision revision, boolean txsrom, boolean tqrom) {
        super(cart, revision == Revision.MMC6 ? 1024 : cart.totalPrgRamSize(),
                tqrom ? 8192 : cart.chrRamSize() + cart.chrNvramSize(), tqrom);
        this.revision = revision;
        this.txsrom = txsrom;
        this.tqrom = tqrom;
        this.mmc6 = revision == Revision.MMC6;
        this.obeyRamProtect = cart.isNes2();
        this.counter = new Mmc3IrqCounter(revision != Revision.MMC3B);
    }

    public Revision revision() {
        return revision;
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.CPU_READ_BELOW_8000 | BoardHooks.PPU_BUS;
    }

    @Override
    public boolean irq() {
        return irqLine;
    }

    @Override
    public boolean lazyPpuSafe() {
        return true;
    }

    /**
     * /IRQ can only assert on a counter clock that leaves the counter at 0 with IRQs enabled: the
     * counter needs {@code rises} more clocks for that, the first possibly on the next dot and
     * each further one {@link A12Filter#DOTS_BETWEEN_CLOCKS} later. Left to itself, a PPU that does not
     * render touches no bus; one that renders with backgrounds at $0000 and 8x8 sprites at $1000
     * raises A12 after a long low only at the first sprite fetch (dot 261) of each rendering line.
     */
    @Override
    public int dotsToBoardEvent(Ppu ppu) {
        if (!irqEnabled || irqLine) {
            return Integer.MAX_VALUE;
        }
        final int rises = counter.clocksToIrq();
        final int bound = A12Filter.dotsToClock(rises);
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
                    counter.requestReload();
                } else {
                    counter.writeLatch(value);
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

    /** Also reached through {@link Mapper#ppuRead} and {@link Mapper#ppuWrite} ({@link #a12Line}). */
    @Override
    public void ppuAddress(int addr) {
        final int level = addr & 0x1000;
        if (level != a12.level() && a12.edge(level, busTime())) { // one clock call site: docs/design/boards.md
            clockCounter();
        }
    }

    @Override
    protected int[] a12Line() {
        return a12.line();
    }

    /** The banks do not follow A12: the PPU may tell of a fall and the rise after it at once. */
    @Override
    protected boolean a12Dips() {
        return true;
    }

    /**
     * A12 falls now and rises {@code dots} dots (4 master clocks each) later, ending high where
     * it was.
     */
    @Override
    public void a12Dip(int lowAddr, int highAddr, int dots) {
        if (a12.dip(busTime(), dots)) {
            clockCounter();
        }
    }

    private void clockCounter() {
        if (counter.clock() && irqEnabled) {
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
        counter.power();
        irqEnabled = false;
        irqLine = false;
        a12.power(busCycles());
    }

    @Override
    protected void updateBanks() {
        int inv = (bankSelect & 0x80) != 0 ? 4 : 0;
        chr(inv, regs[0] & 0xFE);
        chr(inv + 1, regs[0] | 1);
        chr(inv + 2, regs[1] & 0xFE);
        chr(inv + 3, regs[1] | 1);
        chr(inv ^ 4, regs[2]);
        chr((inv ^ 4) + 1, regs[3]);
        chr((inv ^ 4) + 2, regs[4]);
        chr((inv ^ 4) + 3, regs[5]);
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

    /** CHR page {@code slot} to bank value {@code v} (on TQROM, bit 6 picks the CHR-RAM). */
    private void chr(int slot, int v) {
        if (!tqrom) {
            chr1(slot, v);
        } else if ((v & 0x40) != 0) {
            chr1(slot, (chrRomBytes >> 10) + (v & 7));
        } else {
            chr1(slot, Math.floorMod(v, Math.max(1, chrRomBytes >> 10)));
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
        return digestWeight(9) * (((counter.counter() & 0xFFL) << 4)
                | ((counter.reloadPending() ? 1L : 0L) << 3)
                | ((irqLine ? 1L : 0L) << 1)
                | (a12.high() ? 1L : 0L))
            + digestWeight(10) * a12.cycles(busCycles())
            + digestWeight(11) * a12.lowAt();
    }

    @Override
    protected void registers(StateVisitor s) {
        bankSelect = s.u8("bankSelect", bankSelect);
        s.ints("regs", regs, 0, 0xFF);
        mirror = s.u8("mirror", mirror);
        ramProtect = s.u8("ramProtect", ramProtect);
        counter.state(s); // irqLatch, irqCounter, irqReload
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqLine = s.bool("irqLine", irqLine);
        a12.state(s, busCycles()); // a12, cycles, a12LowAt
    }
}
