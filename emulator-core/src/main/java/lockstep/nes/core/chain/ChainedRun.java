package lockstep.nes.core.chain;

import lockstep.nes.core.AccessWatcher;
import lockstep.nes.core.Console;
import lockstep.nes.core.ConsoleSections;
import lockstep.nes.core.Dma;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.NotState;

/**
 * The lockstep chain: one engine run over a stretch of cycles, as {@link Console#runFrame} runs
 * it, folding into a running hash (the chain) every cycle's bus access and every change of the
 * parts counted by {@link Console#changeCount}. Two engines that start a stretch with equal
 * representations and end it with equal chains and representations were equal after every
 * cycle of it (hash collisions aside): the proof, and what each fold is for, are in
 * docs/design/chain.md.
 */
public final class ChainedRun extends AccessWatcher {
    /**
     * The weight of the counted parts' term in the chain (odd); every fold multiplies the chain
     * by {@link AccessWatcher#ACCESS_K}, as a quiet access does.
     */
    private static final long CHAIN_PARTS = 0xD6E8FEB86659FD93L;
    /**
     * Marks a spin loop's counted iterations in the chain ({@link Console#skipSpin}): bit 25 is
     * never set in a bus access's record.
     */
    private static final long SPIN_SKIP = 1L << 25;
    /** The chain before a stretch's first cycle. */
    private static final long CHAIN_SEED = 0x243F6A8885A308D3L;

    private final Console console;
    private final RepresentationTerm terms;
    /** The board counts CPU cycles: its term moves every cycle, uncounted. */
    private final boolean boardCycles;
    /** The board's term moves without a counted change (cycle counters, clock counts): taken afresh at every fold. */
    private final boolean boardMoves;

    /** {@link Console#changeCount} when the counted parts' term was last folded, and that term. */
    @NotState("change count when the stretch last folded the counted parts")
    private long chainedCount;
    @NotState("the counted parts' term the stretch last folded")
    private long chainedParts;
    /**
     * {@link Console#changeCount} less the controllers', the APU's and the PPU's own counts
     * ({@code Controllers#changeCount}, {@code Apu#changeCount}, {@link Console#ppuChangeCount})
     * when the rest of the counted parts (DMA, cheats, and a board whose term moves only on
     * counted changes) was last taken, and that rest's term: while only the controllers, the APU
     * and the PPU change (a game reading its pads, writing sound registers, or writing the
     * scroll registers mid-frame), a fold takes those three afresh and adds the rest as it was
     * instead of taking every part again.
     */
    @NotState("change count, controllers', APU's and PPU's aside, when the rest of the counted parts was last taken")
    private long othersCount;
    @NotState("the rest of the counted parts' term (DMA, cheats, a board that moves only on counted changes)")
    private long othersParts;

    /** A chain over {@code terms}' console ({@code terms} caches the counted parts' term). */
    public ChainedRun(RepresentationTerm terms) {
        this.terms = terms;
        this.console = terms.console();
        this.boardCycles = console.boardCountsCycles();
        this.boardMoves = terms.boardTermTimed();
    }

    /**
     * Runs the console, as {@link Console#runFrame} does, until the frame ends or
     * {@link Console#cycles} reaches {@code limit} (whichever comes first; whole instructions
     * only where they cannot pass the limit), and returns the chain of the stretch: every
     * cycle's bus access (see {@link AccessWatcher}), whole instructions' and interrupt
     * sequences' cycles and cycles run alone (instructions near an event, DMA cycles) alike; and
     * the term of the counted parts (the PPU as of its last catch-up with the PPU clock, the
     * APU with the last cycle it ran, DMA, controllers and board) after every cycle that changed
     * it, and at every instruction boundary and interrupt sequence's start where it changed (a
     * board that counts CPU cycles moves it every cycle, uncounted). A spin loop's iterations
     * counted rather than run ({@link Console#skipSpin}) are one record: how many cycles they
     * took.
     *
     * <p>The chain holds represented values (the PPU clock), so engines equal in state but not
     * in representation may give different chains: start stretches caught up
     * ({@link Console#catchUp}).
     */
    public long run(long limit) {
        begin();
        return resume(limit);
    }

    /** Starts a new chain (a stretch's first cycle comes next). */
    public void begin() {
        chain = CHAIN_SEED;
        chainedCount = Long.MIN_VALUE; // the first boundary folds the counted parts
        othersCount = Long.MIN_VALUE;
        chainedParts = 0;
    }

    /**
     * Folds {@code value} into the chain: a change of state the stretch's cycles did not make
     * (a fault's poke, or the partner's revisit at its cycle: the representation term after it),
     * so that two engines whose chains stay equal made the same such changes.
     */
    public void fold(long value) {
        chain = Long.rotateLeft(chain, 29) * ACCESS_K + value;
        chainedCount = Long.MIN_VALUE; // the counted parts are folded afresh at the next boundary
        othersCount = Long.MIN_VALUE;
    }

    /** The chain so far. */
    public long chain() {
        return chain;
    }

    /**
     * {@link #run} without starting a new chain: continues the stretch (after a fault or revisit
     * came between two of its cycles) until the frame ends or {@link Console#cycles} reaches
     * {@code limit}, and returns the chain so far.
     */
    public long resume(long limit) {
        final Console con = console;
        final Cpu c = con.cpu();
        final long frame = con.frameAfterCycle();
        con.watchAccesses(this);
        try {
            while (con.frameAfterCycle() == frame && con.cycles() < limit) {
                // The common case in a loop of its own, first in the bytecode: opcode fetches with
                // nothing to fold, run whole (none can end the frame or pass the limit). The JIT
                // then inlines it before the rarer paths of step (docs/design/performance.md,
                // "The chained loop's shape").
                while (c.atInstructionStart() && con.changeCount() == chainedCount && !boardCycles
                        && con.cycles() + Cpu.MAX_INSTRUCTION_CYCLES <= limit && con.wholeInstructionSafe()
                        && con.frameCannotEndWithin()) {
                    wholeInstruction(limit);
                }
                if (con.frameAfterCycle() != frame || con.cycles() >= limit) {
                    break;
                }
                step(limit);
            }
        } finally {
            con.watchAccesses(null);
        }
        return chain;
    }

    /**
     * One step of {@link #resume} other than its common case: at a boundary (an opcode fetch or
     * an interrupt sequence's first cycle, no DMA read due), the counted parts if they changed,
     * then the instruction or sequence as a whole where runFrame would run it so and it cannot
     * pass the limit; else one cycle alone, its access and the counted parts if it changed them.
     */
    private void step(long limit) {
        final Console con = console;
        final Cpu c = con.cpu();
        final boolean fetch = c.atInstructionStart();
        if ((fetch || c.atInterruptStart()) && !con.dma().wantsReadCycle()) {
            if (con.changeCount() != chainedCount || boardCycles) {
                foldParts();
            }
            if (con.cycles() + Cpu.MAX_INSTRUCTION_CYCLES <= limit && con.wholeInstructionSafe()
                    && con.frameCannotEndWithin()) {
                if (fetch) {
                    wholeInstruction(limit);
                } else {
                    con.runWholeInterrupt();
                }
                return;
            }
        }
        final long access = (c.isWrite() ? 1L << 24 : 0) | c.address();
        con.runCycle();
        access(access | ((long) con.openBus() << 32));
    }

    /**
     * The instruction whose opcode fetch comes next, as a whole, then a spin loop's iterations
     * counted where it jumped back ({@link Console#afterBackJump}): one record of their cycles.
     */
    private void wholeInstruction(long limit) {
        final Console con = console;
        final Cpu c = con.cpu();
        con.runWholeInstruction();
        if (c.pc() <= c.instructionPc()) {
            final long skipped = con.afterBackJump(limit);
            if (skipped > 0) {
                chain = chain * ACCESS_K + (SPIN_SKIP | skipped << 32);
            }
        }
    }

    /**
     * The reference of {@link #resume}: the same chain with every cycle run alone, no whole
     * instructions or interrupt sequences (the counted parts folded at the same boundaries and
     * after the same cycles, every part taken in full each time). On a console that counts no spin loops
     * ({@link Console#createWithoutSpinSkip}) it gives {@link #resume}'s chain; a differential
     * test holds the two to it.
     */
    long resumeCycleByCycle(long limit) {
        final Console con = console;
        final Cpu c = con.cpu();
        final Dma dma = con.dma();
        final long frame = con.frameAfterCycle();
        while (con.frameAfterCycle() == frame && con.cycles() < limit) {
            if ((c.atInstructionStart() || c.atInterruptStart()) && !dma.wantsReadCycle()
                    && (con.changeCount() != chainedCount || boardCycles)) {
                foldPartsAfresh();
            }
            final long access = (c.isWrite() ? 1L << 24 : 0) | c.address();
            con.runCycle();
            chain = chain * ACCESS_K + (access | ((long) con.openBus() << 32));
            if (con.changeCount() != chainedCount) {
                foldPartsAfresh();
            }
        }
        return chain;
    }

    /** A cycle that is not quiet: its bus access, then the counted parts if the cycle changed them. */
    @Override
    public void access(long access) {
        chain = chain * ACCESS_K + access;
        if (console.changeCount() != chainedCount) {
            foldParts();
        }
    }

    /**
     * Folds the counted parts' term, with the PPU clock and the APU's last cycle run, into the
     * chain when it moved. Only a counted change (or a board's cycle counter) can move it, the
     * PPU clock included (it moves only as the PPU is caught up, which counts a change first).
     * The controllers', the APU's, the PPU's (its term cached on its own count) and a moving
     * board's parts are taken afresh; the rest is taken again only when something else was
     * counted since (the same sum, wrapping, as taking it all in full).
     */
    private void foldParts() {
        final Console con = console;
        final long count = con.changeCount();
        chainedCount = count;
        final long others = count - con.controllers().changeCount() - con.apu().changeCount()
                - con.ppuChangeCount();
        if (others != othersCount) {
            othersCount = others;
            othersParts = CHAIN_PARTS * (terms.restTerm()
                    + (boardMoves ? 0 : ConsoleSections.MAPPER * con.representedMapper().digestTerm()));
        }
        final long board = boardMoves ? ConsoleSections.MAPPER * con.representedMapper().digestTerm() : 0;
        foldPartsTerm(othersParts
                + CHAIN_PARTS * (terms.ppuPartTerm() + terms.controllersTerm() + terms.apuTerm() + board)
                + DigestKeys.W1 * con.ppuClock() + DigestKeys.W2 * con.apu().syncedCycle());
    }

    /** The reference of {@link #foldParts}: every part taken in full at every fold. */
    private void foldPartsAfresh() {
        final Console con = console;
        chainedCount = con.changeCount();
        foldPartsTerm(partsTerm(con));
    }

    /** The counted parts' term in full, with the board's, the PPU clock and the APU's last cycle run. */
    private long partsTerm(Console con) {
        final long board = ConsoleSections.MAPPER * con.representedMapper().digestTerm();
        return CHAIN_PARTS * (terms.countedPartsTerm() + board)
                + DigestKeys.W1 * con.ppuClock() + DigestKeys.W2 * con.apu().syncedCycle();
    }

    private void foldPartsTerm(long parts) {
        if (parts != chainedParts) {
            chainedParts = parts;
            chain = Long.rotateLeft(chain, 29) * ACCESS_K + parts;
        }
    }
}
