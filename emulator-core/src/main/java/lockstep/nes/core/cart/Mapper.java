package lockstep.nes.core.cart;

import lockstep.nes.state.NotState;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.ppu.PpuBus;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * A cartridge board: CPU $4020-$FFFF, the PPU's pattern and nametable space, and CIRAM (the
 * console's 2 KiB of nametable RAM, which the board maps). Subclasses are small and final.
 *
 * <p>Banking goes through int page tables: {@link #prgPage} (byte offset into PRG ROM of each
 * 8 KiB CPU page $8000-$FFFF), {@link #chrPage} (offset into CHR of each 1 KiB PPU page
 * $0000-$1FFF), {@link #ntPage} (offset into CIRAM of each nametable) and {@link #prgRamPage}.
 * The tables derive from the board's registers ({@link #registers}): {@link #updateBanks}
 * rebuilds them after every register write and after a state load. They are visited in the
 * state anyway, so a description shows the live mapping and the state checker sees every field.
 */
public abstract class Mapper implements PpuBus, Digestible {
    /** Returned by {@link #cpuRead} when the cartridge does not drive the data bus. */
    public static final int OPEN_BUS = -1;

    protected final Cartridge cart;
    /** The console's 2 KiB nametable RAM (4 KiB for four-screen boards). */
    protected final Memory ciram;
    /** PRG ROM, mirrored up to a whole number of 8 KiB banks. */
    @NotState("PRG-ROM")
    protected final byte[] prg;
    protected final int prgBanks;
    /** PRG-RAM at $6000-$7FFF (null when the board has none). */
    protected final Memory prgRam;
    private final int prgRamMask;
    /** CHR-RAM (null when the board has CHR ROM). */
    protected final Memory chrRam;
    /** CHR ROM, mirrored up to whole 1 KiB banks (an empty array when the board has CHR-RAM). */
    @NotState("CHR-ROM / CHR-RAM array")
    protected final byte[] chr;
    protected final int chrBanks;
    /**
     * Bytes of CHR-ROM at the start of {@link #chrRam} for a board with CHR-RAM beside its
     * CHR-ROM (TQROM): the PPU reads both through one array; writes below this are refused.
     * 0 for other boards.
     */
    protected final int chrRomBytes;

    // The page tables, rebuilt by updateBanks() from the registers.
    @NotState("bank cache")
    protected final int[] prgPage = new int[4];
    @NotState("bank cache")
    protected final int[] chrPage = new int[8];
    @NotState("bank cache")
    protected final int[] ntPage = new int[4];
    @NotState("bank cache")
    protected int prgRamPage;
    @NotState("bank cache")
    protected boolean prgRamRead;
    @NotState("bank cache")
    protected boolean prgRamWrite;

    /** The console's clock (null for a board driven by hand, e.g. in unit tests). Wiring, not state. */
    private BusClock busClock;
    /** CPU cycles counted by {@link #cpuCycle} calls: the clock of a board without a console. */
    @NotState("clock of a board driven by hand")
    private long detachedCycles;
    /**
     * Counts this board's changes for the lockstep check (the console's counter once wired):
     * {@link #busWrite}, power, reset and state loads here; the console counts the other paths
     * (its PPU catch-ups, which run the PPU bus hooks, and reads below $8000) and compares a
     * board that counts CPU cycles every cycle. Wiring, not state.
     */
    private ChangeCounter changes = new ChangeCounter();

    /** The hooks the board declares ({@link #declaredHooks}), read once here. Wiring, not state. */
    private final int hooks = declaredHooks();

    /** This board's term, cached between the changes it cannot follow otherwise (see {@link #digestTerm}). */
    @NotState("digest cache")
    private final BoardTermCache termCache = new BoardTermCache(this, (hooks & BoardHooks.OUTSIDE_WRITES) != 0);

    protected Mapper(Cartridge cart) {
        this(cart, cart.totalPrgRamSize());
    }

    /** @param prgRamSize bytes of PRG-RAM this board has (0 for none) */
    protected Mapper(Cartridge cart, int prgRamSize) {
        this(cart, prgRamSize, cart.chrRamSize() + cart.chrNvramSize());
    }

    /**
     * @param prgRamSize bytes of PRG-RAM this board has (0 for none)
     * @param chrRamSize bytes of CHR-RAM when the cartridge has no CHR ROM
     */
    protected Mapper(Cartridge cart, int prgRamSize, int chrRamSize) {
        this(cart, prgRamSize, chrRamSize, false);
    }

    /**
     * @param chrRamBesideRom the board has {@code chrRamSize} bytes of CHR-RAM beside its CHR
     *     ROM (one array, ROM first: {@link #chrRomBytes})
     */
    protected Mapper(Cartridge cart, int prgRamSize, int chrRamSize, boolean chrRamBesideRom) {
        this.cart = cart;
        this.ciram = new Memory("ciram", Memory.CIRAM, cart.fourScreen() ? 4096 : 2048);
        this.prg = padded(cart.prg(), 8192);
        this.prgBanks = prg.length >> 13;
        if (prgRamSize > 0) {
            prgRam = new Memory("prgRam", Memory.PRG_RAM, prgRamSize);
            prgRamMask = Integer.highestOneBit(Math.min(prgRamSize, 8192)) - 1;
        } else {
            prgRam = null;
            prgRamMask = 0;
        }
        if (cart.chr().length > 0 && chrRamBesideRom) {
            chr = padded(cart.chr(), 1024);
            int size = chr.length + Math.max(1024, chrRamSize);
            chrRam = new Memory("chrRam", Memory.CHR_RAM,
                    Integer.bitCount(size) == 1 ? size : Integer.highestOneBit(size) << 1);
            chrRomBytes = chr.length;
            copyChrRom();
            chrBanks = chrRam.size() >> 10;
        } else if (cart.chr().length > 0) {
            chrRam = null;
            chrRomBytes = 0;
            chr = padded(cart.chr(), 1024);
            chrBanks = chr.length >> 10;
        } else {
            chrRomBytes = 0;
            int size = Math.max(1024, chrRamSize);
            chrRam = new Memory("chrRam", Memory.CHR_RAM,
                    Integer.bitCount(size) == 1 ? size : Integer.highestOneBit(size) << 1);
            chr = cart.chr();
            chrBanks = chrRam.size() >> 10;
        }
    }

    /** The CHR-ROM into the start of the array it shares with CHR-RAM ({@link #chrRomBytes}). */
    private void copyChrRom() {
        System.arraycopy(chr, 0, chrRam.array(), 0, chrRomBytes);
        chrRam.rehash();
    }

    /** Repeats {@code rom} to a whole, non-zero number of {@code unit}-byte banks. */
    private static byte[] padded(byte[] rom, int unit) {
        if (rom.length >= unit && rom.length % unit == 0) {
            return rom;
        }
        int size = Math.max(unit, (rom.length + unit - 1) / unit * unit);
        byte[] out = new byte[size];
        if (rom.length > 0) {
            for (int i = 0; i < size; i++) {
                out[i] = rom[i % rom.length];
            }
        }
        return out;
    }

    // ---- the contract used by Console and Ppu ----------------------------------------------

    /**
     * The {@link BoardHooks} this board implements: a board that overrides {@link #cpuCycle},
     * {@link #irq}, {@link #cpuRead} or a PPU bus hook declares it here (a constant, read once by
     * the constructor), so the console calls only the hooks a board has.
     */
    protected int declaredHooks() {
        return BoardHooks.NONE;
    }

    /** True when the board declares {@code hook} (a {@link BoardHooks} bit). */
    public final boolean hasHook(int hook) {
        return (hooks & hook) != 0;
    }

    /**
     * The PRG page table, live, of a board that decodes no CPU reads of $8000-$FFFF itself (no
     * {@link BoardHooks#CPU_READ}, or it with {@link BoardHooks#CPU_READ_BELOW_8000}): its read
     * there is then {@code prgRom()[pages[(addr >> 13) & 3] | (addr & 0x1FFF)] & 0xFF}, which the
     * console's quiet reads take without the call. Null otherwise. Read only.
     */
    public final int[] plainRomPages() {
        return !hasHook(BoardHooks.CPU_READ) || hasHook(BoardHooks.CPU_READ_BELOW_8000) ? prgPage : null;
    }

    /** The PRG ROM the page table indexes (padded to whole 8 KiB banks). Read only. */
    public final byte[] prgRom() {
        return prg;
    }

    /** CPU read of $4020-$FFFF; {@link #OPEN_BUS} when nothing answers. */
    public int cpuRead(int addr) {
        if (addr >= 0x8000) {
            return prg[prgPage[(addr >> 13) & 3] | (addr & 0x1FFF)] & 0xFF;
        }
        if (addr >= 0x6000 && prgRamRead) {
            return prgRam.read(prgRamPage + (addr & prgRamMask));
        }
        return OPEN_BUS;
    }

    /** CPU read without side effects. */
    public int cpuPeek(int addr) {
        return cpuRead(addr);
    }

    /** CPU write to $4020-$FFFF. */
    public abstract void cpuWrite(int addr, int value);

    /** The console's CPU write to $4020-$FFFF: {@link #cpuWrite}, noting that registers may change. */
    public final void busWrite(int addr, int value) {
        termCache.markStale();
        changes.bump();
        cpuWrite(addr, value);
    }

    /**
     * A CPU write to a PPU register ($2000-$3FFF, after the PPU took it), for a board that
     * watches them ({@link BoardHooks#PPU_REGISTERS}).
     */
    public void ppuRegisterWrite(int addr, int value) {
    }

    /** The console's CPU write to a PPU register: {@link #ppuRegisterWrite}, noting that registers may change. */
    public final void busPpuRegisterWrite(int addr, int value) {
        noteChange();
        ppuRegisterWrite(addr, value);
    }

    /**
     * Notes a change of the board's registers made outside {@link #busWrite} (a CPU read with
     * side effects in $8000-$FFFF, which the console does not count).
     */
    protected final void noteChange() {
        termCache.markStale();
        changes.bump();
    }

    /**
     * Called once per CPU cycle (at its start), for boards with cycle counters. Here it only
     * counts cycles for a board without a console ({@link #busCycles}).
     */
    public void cpuCycle() {
        detachedCycles++;
    }

    // ---- timing for boards that watch the PPU bus --------------------------------------------

    /** Counts this board's changes in {@code counter} (see {@link ChangeCounter}). */
    public final void trackChanges(ChangeCounter counter) {
        changes = counter;
    }

    /** The console's clock as a board sees it (see {@link #attach}). */
    public interface BusClock {
        /**
         * The master clock (12 per CPU cycle, 4 per PPU dot) of the bus access in progress: for a
         * PPU access, the PPU's clock at the end of the dot it happens on (one master clock
         * behind the CPU's), even when the PPU runs behind the CPU and performs it later; for a
         * CPU access (or outside any access), now. CPU cycle n (from 0
         * at power-on) starts at 12(n + 1), and a board counting {@link #cpuCycle} calls has
         * counted it from 12(n + 1) + 5 on ({@link #cyclesAt}).
         */
        long time();
    }

    /** Wires the console's clock (once, before power-on). */
    public final void attach(BusClock clock) {
        busClock = clock;
    }

    /**
     * The {@link #cpuCycle} calls a board counts by master clock {@code time} ({@link
     * BusClock#time}): cycle n's call comes at its start, with the PPU caught up to its bus
     * access at 12(n + 1) + 5 at the earliest. Two times at most {@link #SHORT_CLOCKS} apart
     * are at most 2 cycles apart.
     */
    public static long cyclesAt(long time) {
        return Math.max(0, Math.floorDiv(time - 17, 12) + 1);
    }

    /** The longest span (in master clocks) in which the count {@link #cyclesAt} can grow by only 2. */
    public static final int SHORT_CLOCKS = 24;

    /**
     * The master clock of the bus access in progress ({@link BusClock#time}); without a console,
     * one at which {@link #cyclesAt} gives the {@link #cpuCycle} calls so far.
     */
    protected final long busTime() {
        final BusClock c = busClock;
        return c != null ? c.time() : 12 * detachedCycles + 5;
    }

    /**
     * CPU cycles at the bus access in progress ({@link #cyclesAt} {@link #busTime}); without a
     * console, the {@link #cpuCycle} calls so far. Boards that time PPU bus events in CPU cycles
     * (an M2 filter) use this instead of counting cpuCycle() calls, so the PPU may run behind the
     * CPU.
     */
    protected final long busCycles() {
        return cyclesAt(busTime());
    }

    /**
     * True for a board that watches the PPU bus ({@link BoardHooks#PPU_BUS}) and still lets the console run the PPU behind the CPU. Such
     * a board (1) takes every CPU-cycle time of a PPU bus event from {@link #busCycles}, (2) has
     * CPU reads that change nothing {@link #dotsToBoardEvent} depends on, and (3) answers
     * {@link #dotsToBoardEvent}. Other bus-watching boards have the PPU stepped with the CPU.
     */
    public boolean lazyPpuSafe() {
        return false;
    }

    /**
     * For {@link #lazyPpuSafe} boards: a lower bound (at least 1) of the PPU dots from now, with
     * the PPU left to itself (no CPU access to the PPU or the board), before this board could
     * change anything the CPU sees without such an access: its /IRQ, or PRG banks that follow PPU
     * lines. {@link Integer#MAX_VALUE} when nothing can. The console catches the PPU up by then,
     * and asks again after every board write, PPU data read and PPU register write but those to
     * $2003-$2005 (OAMADDR, OAM, t, fine x and w): the bound must not depend on what they change.
     */
    public int dotsToBoardEvent(Ppu ppu) {
        return 1;
    }

    /** True while the board pulls /IRQ low. */
    public boolean irq() {
        return false;
    }

    /**
     * The board's sound chip ({@link BoardHooks#AUDIO}): one object for the board's life, which
     * the console's APU steps every CPU cycle in its catch-up and mixes with the 2A03. The board
     * describes its state with its registers and powers it in {@link #powerOn}.
     */
    public ExpansionAudio expansionAudio() {
        return null;
    }

    /**
     * A PPU read. An A12-watching board ({@link #a12Line}) is told of the address first
     * ({@link #ppuAddress}), as {@link PpuBus#a12Watch} has it; only $2007 reads come here for
     * such a board, its rendering fetches are read from its arrays. A board that watches more of
     * the bus overrides this, reading through {@link #pagedRead}.
     */
    @Override
    public int ppuRead(int addr) {
        if (a12Line() != null) {
            ppuAddress(addr);
        }
        return pagedRead(addr);
    }

    /**
     * A PPU read without side effects (debuggers): what the PPU would read at {@code addr}
     * (0..$2FFF) now. A board that watches the PPU bus ({@link BoardHooks#PPU_BUS}) is read
     * through its page tables, where its latches and A12 watching have left them; a board whose
     * PPU reads come from elsewhere and change nothing overrides this with its own read.
     */
    public int ppuPeek(int addr) {
        return (hooks & BoardHooks.PPU_BUS) != 0 ? pagedRead(addr) : ppuRead(addr);
    }

    /** The byte the page tables map at {@code addr}: CHR below $2000, CIRAM above. */
    protected final int pagedRead(int addr) {
        if (addr < 0x2000) {
            final int i = chrPage[addr >> 10] | (addr & 0x3FF);
            return chrRam == null ? chr[i] & 0xFF : chrRam.read(i);
        }
        return ciram.read(ntPage[(addr >> 10) & 3] | (addr & 0x3FF));
    }

    /**
     * The arrays behind {@link #ppuRead} for boards that do not watch the PPU bus
     * ({@link BoardHooks#PPU_BUS}: no CHR latches, no A12 watching): the PPU reads them directly, and the console may let
     * the PPU run behind the CPU between accesses that can observe it. Null for boards that
     * watch the bus.
     */
    @Override
    public final Direct direct() {
        if ((hooks & BoardHooks.PPU_BUS) != 0) {
            return null;
        }
        return new Direct(chrRam != null ? chrRam.array() : chr, chrPage, ciram.array(), ntPage);
    }

    /**
     * For a board whose {@link #a12Line} is non-null: the arrays behind {@link #ppuRead} and that
     * line, so the PPU reads rendering fetches directly and calls {@link #ppuAddress} only when
     * A12 changes ({@link PpuBus#a12Watch}).
     */
    @Override
    public final A12Watch a12Watch() {
        final int[] line = a12Line();
        if (line == null) {
            return null;
        }
        return new A12Watch(new Direct(chrRam != null ? chrRam.array() : chr, chrPage, ciram.array(), ntPage), line,
                a12Dips());
    }

    /**
     * True for an A12-watching board that implements {@link #a12Dip} and whose page tables do
     * not depend on A12 ({@link PpuBus.A12Watch#dips}).
     */
    protected boolean a12Dips() {
        return false;
    }

    /**
     * Non-null for a board that watches only PPU A12 ({@link PpuBus#a12Watch}): its
     * {@link #ppuRead} is {@link #ppuAddress} followed by this class's read, and its ppuAddress
     * does nothing while bit 12 of the address equals {@code line[0]} (0 or 0x1000), which the
     * board keeps as the A12 level it last saw.
     */
    protected int[] a12Line() {
        return null;
    }

    /** A PPU write ($2007); an A12-watching board is told of the address first, as for {@link #ppuRead}. */
    @Override
    public void ppuWrite(int addr, int value) {
        if (a12Line() != null) {
            ppuAddress(addr);
        }
        if (addr < 0x2000) {
            final int i = chrPage[addr >> 10] | (addr & 0x3FF);
            if (chrRam != null && i >= chrRomBytes) {
                chrRam.write(i, value);
            }
        } else {
            ciram.write(ntPage[(addr >> 10) & 3] | (addr & 0x3FF), value);
        }
    }

    /**
     * Power on: RAMs cleared (battery-backed PRG-RAM keeps its contents), the trainer copied to
     * $7000, registers to their power-on values.
     */
    public void power() {
        termCache.markStale();
        changes.bump();
        ciram.fill(0);
        if (chrRam != null && cart.chrNvramSize() == 0) {
            chrRam.fill(0);
            if (chrRomBytes > 0) {
                copyChrRom();
            }
        }
        if (prgRam != null) {
            if (!cart.battery()) {
                prgRam.fill(0);
            }
            byte[] trainer = cart.trainer();
            if (trainer != null && prgRam.size() >= 0x1200) {
                System.arraycopy(trainer, 0, prgRam.array(), 0x1000, trainer.length);
                prgRam.rehash();
            }
        }
        powerOn();
        updateBanks();
    }

    /** The console's reset button: the cartridge sees no reset line, so boards keep their state. */
    public void reset() {
        termCache.markStale();
        changes.bump();
    }

    public Cartridge cartridge() {
        return cart;
    }

    /** PRG-RAM (null when none). */
    public Memory prgRam() {
        return prgRam;
    }

    /** The memory a battery keeps (PRG-RAM of a battery-backed board), or null. */
    public Memory batteryRam() {
        return cart.battery() ? prgRam : null;
    }

    @Override
    public final void state(StateVisitor s) {
        ciram.state(s);
        if (prgRam != null) {
            prgRam.state(s);
        }
        if (chrRam != null) {
            chrRam.state(s);
        }
        registers(s);
        s.ints("prgPage", prgPage, 0, (prgBanks - 1) << 13);
        s.ints("chrPage", chrPage, 0, (chrBanks - 1) << 10);
        s.ints("ntPage", ntPage, 0, ciram.size() - 0x400);
        prgRamPage = s.i32("prgRamPage", prgRamPage, 0, prgRam == null ? 0 : (Math.max(1, prgRam.size() >> 13) - 1) << 13);
        prgRamRead = s.bool("prgRamRead", prgRamRead);
        prgRamWrite = s.bool("prgRamWrite", prgRamWrite);
        if (s.isReader()) {
            updateBanks();
            // Not for other visitors: the term cache's own visit would count as a change.
            changes.bump();
        }
        // A visitor that may have changed values (readers, fault pokes) leaves the digest cache
        // to be rebuilt (its own visit clears this); a snapshot's save, made
        // every frame by the verifier, does not, so the next fold need not visit the board again.
        if (!s.onlyObserves()) {
            termCache.markStale();
        }
    }

    /**
     * This board's digest term ({@code DigestTerm.of(this)}), cached as {@link BoardTermCache}
     * says: only the memories' hashes and a hot part are taken every time on most boards.
     */
    @Override
    public final long digestTerm() {
        return termCache.term();
    }

    /**
     * True when the described state equals {@code o}'s (a board of the same class): the cached
     * term of registers and page tables, and each memory's hash (the lockstep verifier's
     * per-cycle check, cheaper than two digest terms).
     */
    public final boolean sameState(Mapper o) {
        return o.getClass() == getClass() && termCache.sameAs(o.termCache);
    }

    /**
     * True when this board's {@link #digestTerm} moves with the clock alone, with no hook called
     * and nothing counted: its {@link #hotDigestTerm} packs a CPU cycle count read off the bus
     * clock (MMC1, MMC3). A console that caches the board's term between counted changes takes
     * it afresh every cycle for these ({@code RepresentationTerm#term}).
     */
    public final boolean digestTermMovesWithClock() {
        return describesClock();
    }

    /**
     * How much {@link #digestTerm} grows per CPU cycle while nothing else changes, for a board
     * whose term moves with the clock: its clock word's weight when that word is in its
     * {@link #hotDigestTerm} (the count grows by one per cycle), else 0 (unknown: take the term
     * afresh). Valid after a {@link #digestTerm} call.
     */
    public final long digestTermPerCycle() {
        return termCache.perCycle();
    }

    /** True when the described state holds a count read off the bus clock (see {@link #cycles}). */
    protected boolean describesClock() {
        return false;
    }

    /** The weight of the clock count's word in {@link #hotDigestTerm} (boards that {@link #describesClock}). */
    protected long clockDigestWeight() {
        return 0;
    }

    /**
     * For a board whose registers change outside CPU writes ({@link BoardHooks#OUTSIDE_WRITES}): true
     * when {@link #hotDigestTerm} covers every field that does (and none of the others changes
     * then), so the rest of its term is cached like other boards' and only the hot part is
     * packed every time. Default false: the whole term is recomputed through the description
     * every time.
     */
    protected boolean hasHotDigestTerm() {
        return false;
    }

    /**
     * For a board with {@link #hasHotDigestTerm} whose page tables also change outside CPU
     * writes, following one or two lines alone ({@link #hotDigestLine}: A12, CHR latches):
     * between two writes they are a function of the registers and those lines, so the rest of
     * the term is cached once for each level of the lines. Default false.
     */
    protected boolean hasLineKeyedDigest() {
        return false;
    }

    /** The level of the lines the page tables follow, 0-3 (boards with {@link #hasLineKeyedDigest}). */
    protected int hotDigestLine() {
        return 0;
    }

    /**
     * The part of this board's digest term due to the fields that change outside CPU writes,
     * packed as {@link DigestTerm} packs them: the k-th word of {@link #registers} weighs
     * {@link #digestWeight}(k). {@code DigestFastPathTest} checks the whole term against the
     * description every cycle on every board running random code.
     */
    protected long hotDigestTerm() {
        return 0;
    }

    /** The weight of the k-th word of {@link #registers} in this board's term (for {@link #hotDigestTerm}). */
    protected final long digestWeight(int k) {
        return termCache.weight(k);
    }

    // ---- what a board provides ---------------------------------------------------------------

    /** Sets the registers to their power-on values. */
    protected abstract void powerOn();

    /** Rebuilds the page tables from the registers. */
    protected abstract void updateBanks();

    /** Visits the board's registers (bank numbers, latches, IRQ counters) in a fixed order. */
    protected abstract void registers(StateVisitor s);

    // ---- banking helpers (used from updateBanks) ---------------------------------------------

    /** Maps 8 KiB PRG bank {@code bank} (negative counts from the end) at CPU page {@code slot} (0-3 = $8000-$E000). */
    protected final void prg8(int slot, int bank) {
        prgPage[slot] = Math.floorMod(bank, prgBanks) << 13;
    }

    /** Maps a 16 KiB PRG bank at $8000 (slot 0) or $C000 (slot 1). */
    protected final void prg16(int slot, int bank) {
        bank = Math.floorMod(bank, Math.max(1, prgBanks >> 1));
        prg8(slot * 2, bank * 2);
        prg8(slot * 2 + 1, bank * 2 + 1);
    }

    /** Maps a 32 KiB PRG bank at $8000. */
    protected final void prg32(int bank) {
        bank = Math.floorMod(bank, Math.max(1, prgBanks >> 2));
        for (int i = 0; i < 4; i++) {
            prg8(i, bank * 4 + i);
        }
    }

    /** Maps 1 KiB CHR bank {@code bank} at PPU page {@code slot} (0-7). */
    protected final void chr1(int slot, int bank) {
        chrPage[slot] = Math.floorMod(bank, chrBanks) << 10;
    }

    protected final void chr2(int slot, int bank) {
        bank = Math.floorMod(bank, Math.max(1, chrBanks >> 1));
        chr1(slot * 2, bank * 2);
        chr1(slot * 2 + 1, bank * 2 + 1);
    }

    /** Maps a 4 KiB CHR bank at $0000 (slot 0) or $1000 (slot 1). */
    protected final void chr4(int slot, int bank) {
        bank = Math.floorMod(bank, Math.max(1, chrBanks >> 2));
        for (int i = 0; i < 4; i++) {
            chr1(slot * 4 + i, bank * 4 + i);
        }
    }

    protected final void chr8(int bank) {
        bank = Math.floorMod(bank, Math.max(1, chrBanks >> 3));
        for (int i = 0; i < 8; i++) {
            chr1(i, bank * 8 + i);
        }
    }

    /** Sets the nametable arrangement; a four-screen cartridge keeps its own 4 KiB. */
    protected final void mirroring(Mirroring m) {
        if (cart.fourScreen()) {
            m = Mirroring.FOUR_SCREEN;
        }
        int pages = ciram.size() >> 10;
        for (int i = 0; i < 4; i++) {
            ntPage[i] = (m.page(i) % pages) << 10;
        }
    }

    /** Maps 8 KiB PRG-RAM bank {@code bank} at $6000 with the given access. */
    protected final void prgRamBank(int bank, boolean read, boolean write) {
        if (prgRam == null) {
            prgRamRead = false;
            prgRamWrite = false;
            return;
        }
        int banks = Math.max(1, prgRam.size() >> 13);
        prgRamPage = Math.floorMod(bank, banks) << 13;
        prgRamRead = read;
        prgRamWrite = write;
    }

    /** A CPU write to $6000-$7FFF, stored when PRG-RAM is mapped and writable. */
    protected final void writePrgRam(int addr, int value) {
        if (prgRamWrite) {
            prgRam.write(prgRamPage + (addr & prgRamMask), value);
        }
    }

    /** The value a write with bus conflicts puts on the bus: the CPU's AND the ROM's. */
    protected final int busConflict(int addr, int value) {
        return value & (prg[prgPage[(addr >> 13) & 3] | (addr & 0x1FFF)] & 0xFF);
    }
}
