package lockstep.nes.core.chain;

import static lockstep.nes.core.ConsoleSections.APU;
import static lockstep.nes.core.ConsoleSections.CHEATS;
import static lockstep.nes.core.ConsoleSections.CONSOLE;
import static lockstep.nes.core.ConsoleSections.CONTROLLERS;
import static lockstep.nes.core.ConsoleSections.CPU;
import static lockstep.nes.core.ConsoleSections.DMA;
import static lockstep.nes.core.ConsoleSections.MAPPER;
import static lockstep.nes.core.ConsoleSections.PPU;

import lockstep.nes.core.Console;
import lockstep.nes.core.Dma;
import lockstep.nes.core.apu.Apu;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;

/**
 * A console's state as it is represented, lazily stepped parts not caught up, taken cheaply
 * enough to check every cycle: the term of the representation digest ({@link #term}) and the
 * comparison of two consoles' representations ({@link #sameAs}). Both keep caches of the parts
 * that change only on counted events ({@link Console#changeCount}), so one instance follows one
 * console. {@link Console#representation} is the reference definition; why equal
 * representations mean equal states is in docs/design/chain.md.
 */
public final class RepresentationTerm {
    // The console section's words scaled by its section factor (the representation digest's
    // per-cycle part, one multiply each): cycle, masterClock, ppuClock, openBus (with the APU's
    // lag above its 8 bits: 0 once caught up, so the word is the digest's), RAM hash.
    private static final long K_CYCLE = CONSOLE * DigestKeys.W0;
    private static final long K_MASTER = CONSOLE * DigestKeys.W1;
    private static final long K_PPU_CLOCK = CONSOLE * DigestKeys.W2;
    private static final long K_OPEN_BUS = CONSOLE * DigestKeys.W3;
    private static final long K_RAM = CONSOLE * DigestKeys.W4;

    private final Console console;
    private final Cpu cpu;
    private final Ppu ppu;
    private final Apu apu;
    private final Dma dma;
    private final Controllers controllers;
    private final Mapper mapper;
    private final Memory ram;
    /** The board counts CPU cycles: its term moves every cycle, uncounted. */
    private final boolean boardCycles;
    /**
     * The board's digest term moves every cycle without a counted change (it counts CPU cycles,
     * or packs a cycle count read off the clock: {@link Mapper#digestTermMovesWithClock}), so
     * {@link #term} takes it afresh every cycle instead of caching it.
     */
    private final boolean boardTermTimed;

    /**
     * The counted parts' term of {@link #term} (PPU as of its last catch-up, APU as of the last
     * cycle it ran through, DMA, controllers, board, each scaled by its section factor) as it
     * stood when {@link Console#changeCount} read {@link #representedCount}.
     */
    @NotState("cache of the representation digest's counted parts")
    private long representedParts;
    @NotState("cache key of representedParts")
    private long representedCount = Long.MIN_VALUE;
    /**
     * For a board whose term moves with the clock ({@link #boardTermTimed}): how much its scaled
     * term grows per cycle ({@link Mapper#digestTermPerCycle}, included in representedParts as of
     * cycle {@link #representedCycle}), or 0 when it is taken afresh every cycle.
     */
    @NotState("cache: the board term's growth per cycle")
    private long boardSlope;
    @NotState("cache: the cycle representedParts holds the board term of")
    private long representedCycle;
    // The check's memory: when it last found this console's counted parts equal to
    // seenPartner's, the two consoles' change counts read seenMine and seenTheirs.
    @NotState("lockstep check's memory")
    private RepresentationTerm seenPartner;
    @NotState("lockstep check's memory")
    private long seenMine;
    @NotState("lockstep check's memory")
    private long seenTheirs;

    public RepresentationTerm(Console console) {
        this.console = console;
        this.cpu = console.cpu();
        this.ppu = console.representedPpu();
        this.apu = console.apu();
        this.dma = console.dma();
        this.controllers = console.controllers();
        this.mapper = console.representedMapper();
        this.ram = console.ram();
        this.boardCycles = console.boardCountsCycles();
        this.boardTermTimed = boardCycles || mapper.digestTermMovesWithClock();
    }

    public Console console() {
        return console;
    }

    /** The board's term moves without a counted change ({@link #boardTermTimed}). */
    boolean boardTermTimed() {
        return boardTermTimed;
    }

    /**
     * The term of the representation digest ({@code CycleDigest#representation}): the digest
     * term of every component's described state as it stands, lazily stepped parts not caught
     * up (the PPU as of its last catch-up, with its clock; the APU as of the last cycle it ran
     * through, with its lag behind the console, {@code cycle} minus that cycle, packed above
     * the open bus's 8 bits in the console section's fourth word). Nothing is caught up or
     * changed. Once the PPU and APU are caught up (the lag 0) it equals
     * {@link Console#digestTerm}. Two consoles of one cartridge with equal terms are in equal
     * states; two such consoles fed the same input have equal terms at every cycle as long as
     * both catch up at the same cycles (every accessor that catches up, {@link Console#ppu},
     * {@link Console#mapper}, {@link Console#frame}, {@link Console#state}, used on both or
     * neither; {@link Console#revisit} on one whose partner got a state fault).
     *
     * <p>Per cycle: the three clocks, open bus with the APU lag, and the RAM hash (one multiply
     * each), the CPU's term, and the counted parts' term, recomputed only when the change count
     * moved; a board whose term moves with the clock adds its growth since (MMC1 and MMC3: one
     * multiply for their cycle count) or its term taken afresh (cycle-counting boards). Summed
     * as a tree.
     */
    public long term() {
        final Console con = console;
        if (con.changeCount() != representedCount) {
            refreshRepresentedParts();
        }
        final long c = con.cycles();
        long parts = representedParts;
        if (boardTermTimed) {
            final long slope = boardSlope;
            parts += slope != 0 ? slope * (c - representedCycle) : MAPPER * mapper.digestTerm();
        }
        final long bus = (con.openBus() & 0xFFL) | ((c - apu.syncedCycle()) << 8);
        return ((K_CYCLE * c + K_MASTER * con.masterClock()) + (K_PPU_CLOCK * con.ppuClock() + K_OPEN_BUS * bus))
                + ((K_RAM * ram.hash() + parts) + CPU * cpu.digestTerm());
    }

    /**
     * The PPU (as of its last catch-up), APU (as of the last cycle it ran through), DMA and
     * controller terms, each scaled by its section factor: the counted parts but the board, as
     * {@link #term} and a chained stretch ({@link ChainedRun}) take them.
     */
    long countedPartsTerm() {
        return ppuPartTerm() + apuTerm() + restTerm() + controllersTerm();
    }

    /** The PPU's part of {@link #countedPartsTerm} (as of its last catch-up), cached on the PPU's own count. */
    long ppuPartTerm() {
        return PPU * ppuTerm();
    }

    /** The DMA's and the cheats' parts of {@link #countedPartsTerm}: what it holds besides the PPU, APU and controllers. */
    long restTerm() {
        return DMA * dma.digestTerm() + CHEATS * console.cheatsTerm();
    }

    /** The APU's part of {@link #countedPartsTerm} (as of the last cycle it ran through). */
    long apuTerm() {
        return APU * apu.representedTerm();
    }

    /** The controllers' part of {@link #countedPartsTerm}. */
    long controllersTerm() {
        return CONTROLLERS * controllers.digestTerm();
    }

    /**
     * The counted parts' term for {@link #term}, as they stand: the board's too, unless its term
     * moves with the clock ({@link #boardTermTimed}).
     */
    private void refreshRepresentedParts() {
        representedCount = console.changeCount();
        final long t = countedPartsTerm();
        final long board = mapper.digestTerm();
        // A board whose term grows by a known amount per cycle (its clock count) is extrapolated
        // from here; one whose growth is unknown (cycle counters) is taken afresh every cycle.
        boardSlope = boardTermTimed && !boardCycles ? MAPPER * mapper.digestTermPerCycle() : 0;
        representedCycle = console.cycles();
        representedParts = boardTermTimed && boardSlope == 0 ? t : t + MAPPER * board;
    }

    /**
     * The PPU's digest term as it stands (not caught up). {@code Ppu.digestTerm} caches its parts
     * on the PPU's own change count, so this is a few compares while the PPU is unchanged.
     */
    private long ppuTerm() {
        return ppu.digestTerm();
    }

    /**
     * Equal representations, PPU not caught up: for two consoles of one cartridge, equal clocks,
     * console fields, CPU fields, PPU term as of its last catch-up, APU fields and cached terms,
     * DMA, controller and board terms and memory hashes mean equal states, because the PPU's
     * catch-up is a function of its represented state, the clocks and the board's represented
     * state and ROM only (the condition for stepping it lazily at all). Every described field is
     * compared, directly or through a term; {@code SameRepresentationTest} changes each one alone
     * to prove it. False says nothing: two consoles in one state may be represented differently
     * (one has caught its PPU up, the other not yet); compare their digests then.
     */
    public boolean sameAs(RepresentationTerm other) {
        return other.console.cartridge() == console.cartridge() && sameRepresentation(other);
    }

    /**
     * {@link #sameAs} for a console of the same cartridge. The values that change nearly every
     * cycle (clocks, console fields, RAM hash, CPU fields) are compared raw every time, without
     * short-circuits. The rest (PPU term as of its last catch-up, APU, DMA, controllers, board)
     * is compared only when either console's change count has moved since this check last found
     * that rest equal with {@code o}: neither side changed since, so it is still equal. A board
     * that counts CPU cycles changes every cycle and is compared every time.
     */
    private boolean sameRepresentation(RepresentationTerm o) {
        final Console a = console;
        final Console b = o.console;
        if ((((a.cycles() ^ b.cycles()) | (a.masterClock() ^ b.masterClock()) | (a.ppuClock() ^ b.ppuClock())
                | (a.openBus() ^ b.openBus()) | (ram.hash() ^ o.ram.hash())) != 0) | !cpu.sameState(o.cpu)) {
            return false;
        }
        final long mine = a.changeCount();
        final long theirs = b.changeCount();
        if (mine == seenMine & theirs == seenTheirs & o == seenPartner) {
            return !boardCycles || mapper.sameState(o.mapper);
        }
        return sameCountedParts(o, mine, theirs);
    }

    /** The counted parts compared; when equal, remembered as of the counters' readings. */
    private boolean sameCountedParts(RepresentationTerm o, long mine, long theirs) {
        if (((ppuTerm() ^ o.ppuTerm()) | (dma.digestTerm() ^ o.dma.digestTerm())
                | (controllers.digestTerm() ^ o.controllers.digestTerm())
                | (console.cheatsTerm() ^ o.console.cheatsTerm())) != 0
                || !apu.sameState(o.apu) || !mapper.sameState(o.mapper)) {
            return false;
        }
        seenPartner = o;
        seenMine = mine;
        seenTheirs = theirs;
        return true;
    }
}
