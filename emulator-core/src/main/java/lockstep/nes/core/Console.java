package lockstep.nes.core;

import lockstep.nes.state.NotState;

import lockstep.nes.core.apu.Apu;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * One engine: CPU, PPU, APU, DMA, controllers and a cartridge, driven by a master clock.
 *
 * <p>The unit of progress is one CPU cycle ({@link #runCycle}). NTSC timing: one CPU cycle is
 * 12 master clocks and one PPU dot is 4. Within a CPU cycle the PPU is caught up to the moment
 * of the bus access (5 master clocks in for a read, 7 for a write) and then to the end of the
 * cycle, so PPU register accesses land on the right dot. The PPU runs one master clock behind
 * the CPU (the power-on alignment that the hardware tests expect).
 *
 * <p>The PPU may run behind the CPU until something could observe it ({@link PpuCatchUp}): it
 * is caught up before every PPU register or board access, at its deadlines, and before anyone
 * looks at it ({@link #ppu}, {@link #frame}, {@link #state}).
 */
public final class Console implements Digestible {
    private static final long S_CONSOLE = DigestKeys.section("console");
    private static final long S_CPU = DigestKeys.section("cpu");
    private static final long S_PPU = DigestKeys.section("ppu");
    private static final long S_APU = DigestKeys.section("apu");
    private static final long S_DMA = DigestKeys.section("dma");
    private static final long S_CONTROLLERS = DigestKeys.section("controllers");
    private static final long S_MAPPER = DigestKeys.section("mapper");
    // The console section's words scaled by its section factor (the representation digest's
    // per-cycle part, one multiply each): cycle, masterClock, ppuClock, openBus (with the APU's
    // lag above its 8 bits: 0 once caught up, so the word is the digest's), RAM hash.
    private static final long K_CYCLE = S_CONSOLE * DigestKeys.W0;
    private static final long K_MASTER = S_CONSOLE * DigestKeys.W1;
    private static final long K_PPU_CLOCK = S_CONSOLE * DigestKeys.W2;
    private static final long K_OPEN_BUS = S_CONSOLE * DigestKeys.W3;
    private static final long K_RAM = S_CONSOLE * DigestKeys.W4;

    private static final int CPU_DIVIDER = 12;

    private final Cartridge cartridge;
    private final Mapper mapper;
    private final Cpu cpu = new Cpu();
    private final Ppu ppu;
    private final Dma dma = new Dma(this);
    private final Apu apu = new Apu(dma);
    private final Controllers controllers = new Controllers();
    private final Memory ram = new Memory("ram", Memory.RAM, 2048);

    /** CPU cycles started since power-on, minus one (-1 at power, as the reset sequence starts). */
    private long cycle;
    private long masterClock;
    /** The last value seen on the CPU data bus. */
    private int openBus;

    /**
     * The PPU's digest term as it stood when {@link #ppuChanges} read {@link #ppuTermCount}, for
     * {@link #sameRepresentationAs} (the PPU's term as of its last catch-up): every change of the
     * PPU is counted (its mutators count themselves), so the term holds while the count does.
     * A cache, not state.
     */
    @NotState("digest cache")
    private long ppuTerm;
    @NotState("digest cache")
    private long ppuTermCount = -1;
    /**
     * The counted parts' term of {@link #representationTerm} (PPU as of its last catch-up, APU as
     * of the last cycle it ran through, DMA, controllers, board, each scaled by its section
     * factor) as it stood when {@link #changes} read {@link #representedCount}. A cache, not state.
     */
    @NotState("cache of the representation digest's counted parts")
    private long representedParts;
    @NotState("cache key of representedParts")
    private long representedCount = Long.MIN_VALUE;
    /**
     * For a board whose term moves with the clock ({@link #boardTermTimed}): how much its scaled
     * term grows per cycle ({@link Mapper#digestTermPerCycle}, included in representedParts as of
     * cycle {@link #representedCycle}), or 0 when it is taken afresh every cycle. A cache.
     */
    @NotState("cache: the board term's growth per cycle")
    private long boardSlope;
    @NotState("cache: the cycle representedParts holds the board term of")
    private long representedCycle;

    /**
     * Counts every change of the parts that change only on events: the PPU (counted here, at
     * each catch-up, power, reset and state visit), the APU, DMA, controllers and board (each
     * counting its own). Clocks, console fields, CPU RAM and CPU are not counted: they change
     * nearly every cycle and {@link #sameRepresentation} compares them every time. Wiring, not state.
     */
    private final ChangeCounter changes = new ChangeCounter();
    /** The PPU's own changes, each counted in {@link #changes} too: {@link #ppuTerm} keys on it. */
    private final ChangeCounter ppuChanges = new ChangeCounter(changes);
    /** Runs the PPU up to the master clock, lazily where nothing could see the difference. */
    private final PpuCatchUp ppuCatchUp;
    // The lockstep check's memory (a cache, not state): when it last found this console's
    // counted parts equal to seenPartner's, the two counters read seenMine and seenTheirs.
    @NotState("lockstep check's memory")
    private Console seenPartner;
    @NotState("lockstep check's memory")
    private long seenMine;
    @NotState("lockstep check's memory")
    private long seenTheirs;

    // Fixed wiring decided once from the board's class (not state): hooks a board does not
    // override cost nothing per cycle.
    /** The board counts CPU cycles ({@link Mapper#cpuCycle} overridden). */
    private final boolean boardCycles;
    /**
     * The board's digest term moves every cycle without a counted change (it counts CPU cycles,
     * or packs a cycle count read off the clock: {@link Mapper#digestTermMovesWithClock}), so
     * {@link #representationTerm} takes it afresh every cycle instead of caching it.
     */
    private final boolean boardTermTimed;
    /** The board can pull /IRQ low ({@link Mapper#irq} overridden). */
    private final boolean boardIrq;
    /**
     * The PPU is caught up at the start of every cycle, before the board counts it. Not needed
     * for a lazy PPU on a board that neither counts cycles nor watches the PPU bus: nothing
     * between the start of the cycle and the access looks at the PPU, and accesses that do
     * observe it catch it up themselves.
     */
    private final boolean syncAtStart;
    /** The 2 KiB CPU RAM's live array (reads only; writes go through {@link #ram}). */
    private final byte[] ramData;

    private Console(Cartridge cartridge, Mapper mapper, boolean eager) {
        this.cartridge = cartridge;
        this.mapper = mapper;
        this.ppu = new Ppu(mapper);
        this.ppuCatchUp = new PpuCatchUp(ppu, mapper, changes, eager);
        this.boardCycles = overrides(mapper.getClass(), "cpuCycle");
        this.boardIrq = overrides(mapper.getClass(), "irq");
        this.boardTermTimed = boardCycles || mapper.digestTermMovesWithClock();
        this.syncAtStart = !ppuCatchUp.lazy() || boardCycles || ppuCatchUp.boardBound();
        this.ramData = ram.array();
        mapper.attach(this::busTime);
        mapper.trackChanges(changes);
        ppu.trackChanges(ppuChanges);
        apu.trackChanges(changes);
        dma.trackChanges(changes);
        controllers.trackChanges(changes);
        power();
    }

    /** True when {@code board} overrides the no-argument hook {@code name} of {@link Mapper}. */
    private static boolean overrides(Class<?> board, String name) {
        try {
            return board.getMethod(name).getDeclaringClass() != Mapper.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Builds an engine for {@code cartridge}, powered on. */
    public static Console create(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper(), false);
    }

    /**
     * An engine that steps the PPU with the CPU whatever the board (the reference the lazily
     * stepped PPU must equal at every cycle; for tests).
     */
    static Console createEager(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper(), true);
    }

    /** Power cycle: everything back to its power-on state, then the CPU's reset sequence. */
    public void power() {
        apu.sync(); // the audio of the cycles before the power cycle, as if stepped eagerly
        ram.fill(0);
        cycle = -1;
        masterClock = CPU_DIVIDER;
        ppuCatchUp.power();
        openBus = 0;
        changes.bump();
        mapper.power();
        ppu.power();
        apu.power();
        dma.power();
        controllers.power();
        cpu.power();
    }

    /** Soft reset (the console's reset button). */
    public void reset() {
        syncPpu();
        mapper.reset();
        ppu.reset();
        apu.reset();
        dma.power();
        cpu.reset();
        ppuCatchUp.expire();
        changes.bump();
    }

    /** Runs one CPU cycle (which may be a DMA cycle while the CPU is halted). */
    public void runCycle() {
        final Cpu c = cpu;
        final boolean write = c.isWrite();
        if (write || !dma.wantsReadCycle()) {
            // The bus access is 7 master clocks into a write cycle, 5 into a read cycle.
            final int access = write ? 7 : 5;
            masterClock += access;
            beginCycle();
            int value = 0;
            if (write) {
                write(c.address(), c.dataOut());
            } else {
                value = read(c.address());
            }
            masterClock += CPU_DIVIDER - access;
            runPpu();
            c.tick(value);
        } else {
            dma.cycle(c.address());
        }
        c.pollInterrupts(ppu.nmiOutput(), apu.irq() || (boardIrq && mapper.irq()));
    }

    /**
     * The work at the start of every CPU cycle once the master clock is at the bus access: the
     * PPU caught up to it (when someone before the access could see it), the APU and the
     * board's cycle counter clocked.
     */
    private void beginCycle() {
        cycle++;
        if (syncAtStart) {
            runPpu();
        }
        apu.runTo(cycle);
        if (boardCycles) {
            mapper.cpuCycle();
        }
    }

    /**
     * Runs until the PPU finishes the current frame: whole instructions at once where that is
     * the same as cycle by cycle ({@link #wholeInstructionSafe}), else one cycle at a time.
     */
    public void runFrame() {
        final long frame = ppu.frameCount();
        final Cpu c = cpu;
        while (ppu.frameCount() == frame) {
            if (c.atInstructionStart() && wholeInstructionSafe() && frameCannotEndWithin()) {
                c.runInstruction(bus);
            } else {
                runCycle();
            }
        }
    }

    /** Runs until the CPU is about to fetch an opcode (at least one cycle). */
    public void runInstruction() {
        final Cpu c = cpu;
        do {
            if (c.atInstructionStart() && wholeInstructionSafe()) {
                c.runInstruction(bus);
            } else {
                runCycle();
            }
        } while (!c.atInstructionStart());
    }

    /**
     * True when the coming instruction (the CPU at its opcode fetch) may run as a whole
     * ({@link Cpu#runInstruction}): the fetch is a read, and the DMA unit cannot take any of
     * its read cycles. DMA starts by a $4014 or $4015 write (which no instruction follows with a
     * read other than JSR's, after its pushes to the stack page) or by a DMC request, which the
     * APU makes only at a visible event, not before its {@link Apu#nextEventCycle}.
     */
    boolean wholeInstructionSafe() {
        return !cpu.isWrite() && !dma.wantsReadCycle()
                && apu.nextEventCycle() > cycle + Cpu.MAX_INSTRUCTION_CYCLES;
    }

    /**
     * True when the frame cannot end inside the coming instruction, so {@link #runFrame} stops
     * where it would cycle by cycle: the PPU's frame-counter increment is one of the dots its
     * deadline stops at, and no access moves that dot earlier (an eagerly stepped PPU has no
     * deadline: never true).
     */
    boolean frameCannotEndWithin() {
        return !ppuCatchUp.isDue(masterClock + (long) Cpu.MAX_INSTRUCTION_CYCLES * CPU_DIVIDER);
    }

    /**
     * The bus of whole instructions: one cycle per call, as {@link #runCycle} makes it. A cycle
     * that reads RAM or $8000-$FFFF, or writes RAM, before the PPU's and the APU's deadlines
     * (a quiet cycle: the catch-ups of {@link #beginCycle} and {@link #runPpu} would do nothing),
     * on a board without a cycle counter, is its clocks and its access alone (folded into the
     * chain of a chained stretch like any other access), small
     * enough to inline into {@link Cpu#runInstruction} ({@link Cpu.Bus#quietRead}); any other
     * is the whole cycle ({@code cycleRead}, {@code cycleWrite}). A quiet cycle changes neither
     * /NMI nor /IRQ (only catch-ups at the deadlines, register accesses and board cycles do), so
     * the CPU polls after it from the lines it last saw. Per-cycle work added here must be done
     * in the quiet paths too, or make {@link #quietCycle} false while it is on.
     */
    private final Cpu.Bus bus = new Cpu.Bus() {
        @Override
        public int cycleRead(int address) {
            masterClock += 5;
            beginCycle();
            final int value = read(address);
            masterClock += CPU_DIVIDER - 5;
            runPpu();
            if (chained) {
                foldCycle(address | ((long) openBus << 32)); // the value read, unless a $4015 read's
            }
            return value;
        }

        @Override
        public void cycleWrite(int address, int value) {
            masterClock += 7;
            beginCycle();
            write(address, value);
            masterClock += CPU_DIVIDER - 7;
            runPpu();
            if (chained) {
                foldCycle(address | (1L << 24) | ((long) value << 32));
            }
        }

        @Override
        public int quietRead(int address) {
            if ((address < 0x2000 || address >= 0x8000) && quietCycle()) {
                cycle++;
                masterClock += 5;
                int value;
                if (address < 0x2000) {
                    value = ramData[address & 0x7FF] & 0xFF;
                } else {
                    value = mapper.cpuRead(address);
                    if (value < 0) {
                        value = openBus;
                    }
                }
                openBus = value;
                masterClock += CPU_DIVIDER - 5;
                if (chained) {
                    foldAccess(address | ((long) value << 32));
                }
                return value;
            }
            return -1;
        }

        @Override
        public int quietWrite(int address, int value) {
            if (address < 0x2000 && quietCycle()) {
                cycle++;
                masterClock += CPU_DIVIDER;
                openBus = value;
                ram.write(address & 0x7FF, value);
                if (chained) {
                    foldAccess(address | (1L << 24) | ((long) value << 32));
                }
                return 0;
            }
            return -1;
        }

        @Override
        public boolean nmiLow() {
            return ppu.nmiOutput();
        }

        @Override
        public boolean irqLow() {
            return apu.irq() || (boardIrq && mapper.irq());
        }
    };

    /**
     * True when the coming cycle is quiet (see {@link #bus}): it ends before the PPU's deadline
     * (so neither catch-up of the cycle runs it) and starts before the APU's next event, and the
     * board counts no cycles. A chained stretch ({@link #runChained}) folds quiet cycles' accesses
     * as it folds the others.
     */
    private boolean quietCycle() {
        return !ppuCatchUp.isDue(masterClock + CPU_DIVIDER) && cycle + 1 < apu.nextEventCycle()
                && !boardCycles;
    }

    // ---- stretches of cycles folded into a running hash (the same-thread lockstep verifier) ----

    // The chained stretch in progress (bookkeeping of runChained, not state).
    @NotState("whether a chained stretch is running")
    private boolean chained;
    @NotState("the running stretch's hash")
    private long chain;
    /** {@link #changes} when the counted parts' term was last folded, and that term. */
    @NotState("change count when the stretch last folded the counted parts")
    private long chainedCount;
    @NotState("the counted parts' term the stretch last folded")
    private long chainedParts;

    /** The chain's multiplier per cycle and the weight of the counted parts (odd constants). */
    private static final long CHAIN_K = 0x9E3779B97F4A7C15L;
    private static final long CHAIN_PARTS = 0xD6E8FEB86659FD93L;
    /** The chain before a stretch's first cycle. */
    private static final long CHAIN_SEED = 0x243F6A8885A308D3L;

    /**
     * Runs this engine, as {@link #runFrame} does, until the frame ends or {@link #cycles()}
     * reaches {@code limit} (whichever comes first; whole instructions only where they cannot
     * pass the limit), folding it into a running hash, the chain, which it returns:
     * <ul>
     * <li>every cycle's bus access: address, direction, and the value on the data bus after it
     *     (the open bus: the value read or written; a $4015 read, which leaves the bus alone,
     *     reads what the APU's state and the open bus give) — whole instructions' cycles and
     *     cycles run alone (interrupt sequences, instructions near an event, DMA cycles) alike;
     * <li>the term of the counted parts: the PPU (as of its last catch-up) with the PPU clock,
     *     the APU, DMA, controllers and board, after every cycle that changed it (a counted
     *     change; quiet cycles make none), and at every instruction boundary where it changed
     *     (a board that counts CPU cycles moves it every cycle, uncounted).
     * </ul>
     *
     * <p>Why two engines that start a stretch with equal representations
     * ({@link #sameRepresentationAs}, both caught up there so that their caches agree too), run
     * it to the same cycle, leave equal chains and end it with equal representations were equal
     * after every cycle of it (hash collisions aside): the cycle count and the master clock move
     * alike; the CPU (registers and internal latches) after each cycle is a function of its
     * state at the stretch's start and the values it read, all in the chain; the CPU RAM changes
     * only by the CPU's writes, all in the chain (faults and pokes come between stretches); the
     * counted parts change by the CPU's accesses to them (in the chain) and by their own
     * progress (which, in an engine that misbehaves, may differ on its own: a PPU fetching
     * other pattern bytes), and the chain holds their term after every cycle that changed it.
     * Instruction boundaries alone would not do: a part may differ and heal between two of them
     * (a PPU caught up by the $2004 writes of an OAM DMA while it draws), unseen by any access.
     * So an engine that starts a stretch differently is refused before it (its representation
     * differs), and one that comes to differ inside it either reads or writes something else
     * (its chain differs at that access), or its counted parts differ after some cycle (the
     * chain differs there), or it ends the stretch different (its representation differs). The
     * registers and RAM are not folded themselves: they would cost about a tenth of the
     * engine's time and add nothing the accesses do not determine. One part is held less
     * closely: a board that counts CPU cycles moves its term every cycle without a counted
     * change, and the chain holds it at instruction boundaries (and after counted changes).
     *
     * <p>{@code PairStepperTest#aDifferenceOnlyOneFoldSeesIsFoundByTheStretch} plants, for each
     * of these folds, a difference that heals within its stretch and that only that fold sees.
     *
     * <p>The chain holds represented values (the PPU clock), so engines equal in state but not
     * in representation may give different chains: start stretches caught up ({@link #catchUp}).
     */
    public long runChained(long limit) {
        final long frame = ppu.frameCount();
        final Cpu c = cpu;
        chain = CHAIN_SEED;
        chainedCount = Long.MIN_VALUE; // the first boundary folds the counted parts
        chainedParts = 0;
        chained = true;
        try {
            while (ppu.frameCount() == frame && cycle < limit) {
                if (c.atInstructionStart() && !dma.wantsReadCycle()) {
                    // An instruction boundary: the counted parts if they changed, then the
                    // instruction as a whole where runFrame would run it so and it cannot pass
                    // the limit.
                    if (changes.count() != chainedCount || boardCycles) {
                        foldParts();
                    }
                    if (cycle + Cpu.MAX_INSTRUCTION_CYCLES <= limit && wholeInstructionSafe() && frameCannotEndWithin()) {
                        c.runInstruction(bus);
                        continue;
                    }
                }
                final long access = (c.isWrite() ? 1L << 24 : 0) | c.address();
                runCycle();
                foldCycle(access | ((long) openBus << 32));
            }
        } finally {
            chained = false;
        }
        return chain;
    }

    /** Folds one cycle's bus access into the chain (see {@link #runChained}). */
    private void foldAccess(long access) {
        chain = chain * CHAIN_K + access;
    }

    /**
     * Folds a cycle that is not quiet: its bus access, then the counted parts if the cycle
     * changed them (a quiet cycle changes none: see {@link #quietCycle}).
     */
    private void foldCycle(long access) {
        chain = chain * CHAIN_K + access;
        if (changes.count() != chainedCount) {
            foldParts();
        }
    }

    /**
     * Folds the counted parts' term, with the PPU clock and the APU's last cycle run, into the
     * chain when it moved. Only a
     * counted change (or a board's cycle counter) can move it, the PPU clock included (it moves
     * only as the PPU is caught up, which counts a change first).
     */
    private void foldParts() {
        chainedCount = changes.count();
        final long parts = CHAIN_PARTS * (countedPartsTerm() + S_MAPPER * mapper.digestTerm())
                + DigestKeys.W1 * ppuCatchUp.clock() + DigestKeys.W2 * apu.syncedCycle();
        if (parts != chainedParts) {
            chainedParts = parts;
            chain = Long.rotateLeft(chain, 29) * CHAIN_K + parts;
        }
    }

    /** Starts a CPU cycle and runs up to its bus access (DMA cycles; {@link #runCycle} inlines this). */
    void startCycle(boolean read) {
        masterClock += read ? 5 : 7;
        beginCycle();
    }

    void endCycle(boolean read) {
        masterClock += read ? 7 : 5;
        runPpu();
    }

    private void runPpu() {
        if (ppuCatchUp.isDue(masterClock)) {
            syncPpu();
        }
    }

    /** Runs the PPU up to the present master clock. */
    private void syncPpu() {
        ppuCatchUp.sync(masterClock);
    }

    /**
     * The PPU registers whose writes may change what a board's bound depends on (the board,
     * the PPU's position, ctrl, whether it renders, whether a register effect is pending, the
     * address on its bus): all but $2003-$2005, which change only OAMADDR, OAM, t, fine x and w.
     */
    private static final boolean[] BOUND_REGISTERS = {true, true, true, false, false, false, true, true};

    /** The board's clock ({@link Mapper.BusClock#time}): the time of the PPU dot or CPU cycle in progress. */
    private long busTime() {
        return ppuCatchUp.busTime(masterClock);
    }

    /** A CPU bus read with side effects. */
    int read(int addr) {
        int value;
        if (addr < 0x2000) {
            value = ramData[addr & 0x7FF] & 0xFF;
        } else if (addr < 0x4000) {
            syncPpu();
            value = ppu.readRegister(addr & 7);
            if ((addr & 7) == 7) {
                ppuCatchUp.boardBoundStale();
            }
        } else if (addr < 0x4020) {
            switch (addr) {
                case 0x4015 -> {
                    // The status register is read inside the 2A03: it does not drive the bus.
                    return apu.read(addr, openBus);
                }
                case 0x4016 -> value = controllers.read(0, openBus);
                case 0x4017 -> value = controllers.read(1, openBus);
                default -> value = openBus;
            }
        } else {
            if (addr < 0x8000) {
                // Board registers and RAM below $8000 may depend on or change what the PPU sees.
                // (The catch-up also counts a change: reads there may have side effects, which
                // boards keep out of $8000-$FFFF; ChangeTrackingTest checks every board.)
                syncPpu();
            }
            value = mapper.cpuRead(addr);
            if (value < 0) {
                value = openBus;
            }
        }
        openBus = value;
        return value;
    }

    /** A CPU bus write. */
    void write(int addr, int value) {
        openBus = value;
        if (addr < 0x2000) {
            ram.write(addr & 0x7FF, value);
        } else if (addr < 0x4000) {
            syncPpu();
            ppu.writeRegister(addr & 7, value);
            if (BOUND_REGISTERS[addr & 7]) {
                ppuCatchUp.boardBoundStale();
            }
        } else if (addr < 0x4020) {
            switch (addr) {
                case 0x4014 -> dma.startOam(value);
                case 0x4016 -> controllers.write(value);
                default -> apu.write(addr, value);
            }
        } else {
            // A board write may switch banks or mirroring: the PPU must have read with the old ones.
            syncPpu();
            mapper.busWrite(addr, value);
            ppuCatchUp.boardBoundStale();
        }
    }

    /** Reads the CPU address space without side effects (debuggers, tests, the verifier). */
    public int peek(int addr) {
        addr &= 0xFFFF;
        if (addr < 0x2000) {
            return ram.read(addr & 0x7FF);
        } else if (addr < 0x4000) {
            syncPpu();
            return ppu.peekRegister(addr & 7);
        } else if (addr < 0x4020) {
            return switch (addr) {
                case 0x4015 -> apu.peek(addr, openBus);
                case 0x4016 -> controllers.peek(0, openBus);
                case 0x4017 -> controllers.peek(1, openBus);
                default -> openBus;
            };
        }
        if (addr < 0x8000) {
            syncPpu();
        }
        int v = mapper.cpuPeek(addr);
        return v < 0 ? openBus : v;
    }

    int openBus() {
        return openBus;
    }

    long cycleCounter() {
        return cycle;
    }

    /** CPU cycles since power-on, counted as nestest does (7 when the first instruction starts). */
    public long cycles() {
        return cycle;
    }

    public long frame() {
        syncPpu();
        return ppu.frameCount();
    }

    /**
     * Catches the lazily stepped PPU and APU up to the present: the state is unchanged, only its
     * representation (two engines in the same state, both caught up, represent it alike).
     */
    public void catchUp() {
        syncPpu();
        apu.sync();
    }

    /**
     * A count that moves whenever the PPU, APU, DMA, controllers or board may have changed,
     * their catch-ups included (see {@link ChangeCounter}).
     */
    public long changeCount() {
        return changes.count();
    }

    /**
     * {@link #frame()} without catching the PPU up, for loops that test it after every cycle:
     * exact between cycles, because a lazily stepped PPU is always caught up when it reaches the
     * dot that increments the frame counter (its deadline stops there; {@link #runFrame} relies
     * on the same).
     */
    public long frameAfterCycle() {
        return ppu.frameCount();
    }

    public void setButtons(int port, int buttons) {
        controllers.setButtons(port, buttons);
    }

    public Cpu cpu() { return cpu; }
    /** The PPU, caught up to the present. */
    public Ppu ppu() {
        syncPpu();
        return ppu;
    }
    public Apu apu() { return apu; }
    public Dma dma() { return dma; }
    /** The board (the PPU is caught up first: a board's state can depend on what it has fetched). */
    public Mapper mapper() {
        syncPpu();
        return mapper;
    }
    public Controllers controllers() { return controllers; }
    public Cartridge cartridge() { return cartridge; }
    /** The 2 KiB CPU RAM. */
    public Memory ram() { return ram; }

    /** The whole machine's digest term: {@code DigestTerm.of(this)} through each component's fast path. */
    @Override
    public long digestTerm() {
        syncPpu(); // the digest is of the state at this cycle, lazily stepped PPU included
        return S_CONSOLE * (DigestKeys.W0 * cycle + DigestKeys.W1 * masterClock + DigestKeys.W2 * ppuCatchUp.clock()
                        + DigestKeys.W3 * (openBus & 0xFFL) + DigestKeys.W4 * ram.hash())
                + S_CPU * cpu.digestTerm()
                + S_PPU * ppuTerm()
                + S_APU * apu.digestTerm()
                + S_DMA * dma.digestTerm()
                + S_CONTROLLERS * controllers.digestTerm()
                + S_MAPPER * mapper.digestTerm();
    }

    /**
     * The term of the representation digest ({@code CycleDigest#representation}): the digest
     * term of every component's described state as it stands, lazily stepped parts not caught
     * up (the PPU as of its last catch-up, with its clock; the APU as of the last cycle it ran
     * through, with its lag behind the console, {@code cycle} minus that cycle, packed above
     * the open bus's 8 bits in the console section's fourth word). Nothing is caught up or
     * changed. Once the PPU and APU are caught up (the lag 0) it equals {@link #digestTerm}. Because a lazy part's
     * catch-up depends only on its represented state, the clocks and the board's state (the
     * condition for stepping it lazily, see {@link #sameRepresentationAs}), equal terms of two
     * consoles of one cartridge mean equal states; two such consoles fed the same input have
     * equal terms at every cycle as long as both catch up at the same cycles (every accessor
     * that catches up, {@link #ppu}, {@link #mapper}, {@link #frame}, {@link #state}, used on
     * both or neither; {@link #revisit} on one whose partner got a state fault).
     *
     * <p>Per cycle: the three clocks, open bus with the APU lag, and the RAM hash (one multiply
     * each), the CPU's term, and the counted parts' term, recomputed only when {@link #changes}
     * moved; a board whose term moves with the clock adds its growth since (MMC1 and MMC3: one
     * multiply for their cycle count) or its term taken afresh (cycle-counting boards). Summed
     * as a tree.
     */
    public long representationTerm() {
        if (changes.count() != representedCount) {
            refreshRepresentedParts();
        }
        final long c = cycle;
        long parts = representedParts;
        if (boardTermTimed) {
            final long slope = boardSlope;
            parts += slope != 0 ? slope * (c - representedCycle) : S_MAPPER * mapper.digestTerm();
        }
        final long bus = (openBus & 0xFFL) | ((c - apu.syncedCycle()) << 8);
        return ((K_CYCLE * c + K_MASTER * masterClock) + (K_PPU_CLOCK * ppuCatchUp.clock() + K_OPEN_BUS * bus))
                + ((K_RAM * ram.hash() + parts) + S_CPU * cpu.digestTerm());
    }

    /**
     * The PPU (as of its last catch-up), APU (as of the last cycle it ran through), DMA and
     * controller terms, each scaled by its section factor: the counted parts but the board, as
     * {@link #representationTerm} and a chained stretch ({@link #foldParts}) take them.
     */
    private long countedPartsTerm() {
        return S_PPU * ppuTerm() + S_APU * apu.representedTerm() + S_DMA * dma.digestTerm()
                + S_CONTROLLERS * controllers.digestTerm();
    }

    /**
     * The counted parts' term for {@link #representationTerm}, as they stand: the board's too,
     * unless its term moves with the clock ({@link #boardTermTimed}).
     */
    private void refreshRepresentedParts() {
        representedCount = changes.count();
        final long t = countedPartsTerm();
        final long board = mapper.digestTerm();
        // A board whose term grows by a known amount per cycle (its clock count) is extrapolated
        // from here; one whose growth is unknown (cycle counters) is taken afresh every cycle.
        boardSlope = boardTermTimed && !boardCycles ? S_MAPPER * mapper.digestTermPerCycle() : 0;
        representedCycle = cycle;
        representedParts = boardTermTimed && boardSlope == 0 ? t : t + S_MAPPER * board;
    }

    /**
     * Visits the described state as it is represented, in {@link #state}'s order, without
     * catching anything up: the PPU as of its last catch-up and the APU as of
     * {@link Apu#syncedCycle}. The reference definition of {@link #representationTerm}
     * ({@code CycleDigest#recomputeRepresentation}). For writers only; values a visitor returns
     * are stored and cached terms dropped (tests change single fields this way), but no deadline
     * moves, so a visit that changes nothing leaves the engine's future unchanged.
     */
    public void representation(StateVisitor s) {
        if (s.isReader()) {
            throw new IllegalArgumentException("representation(): writers only (a reader loads through state())");
        }
        consoleCpuAndPpu(s);
        s.beginSection("apu");
        apu.representation(s);
        s.endSection();
        s.section("dma", dma);
        s.section("controllers", controllers);
        s.section("mapper", mapper);
        changes.bump();
    }

    /**
     * Puts this console through the visit a state fault makes ({@link #state} with a reader),
     * changing nothing: everything caught up, caches rebuilt, memories rehashed, deadlines
     * computed afresh. When one engine of a pair gets a state fault (a poke goes through
     * {@link #state}), its partner is revisited at the same cycle, so that a fault that writes
     * the value already there leaves the two represented alike ({@link #representationTerm}).
     */
    public void revisit() {
        state(PassThrough.READER);
    }

    /** A reader that returns every value unchanged (see {@link #revisit}). */
    private static final class PassThrough implements StateVisitor {
        static final PassThrough READER = new PassThrough();

        @Override public boolean isReader() { return true; }
        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String name, boolean value) { return value; }
        @Override public int u8(String name, int value) { return value; }
        @Override public int u16(String name, int value) { return value; }
        @Override public int i32(String name, int value) { return value; }
        @Override public long i64(String name, long value) { return value; }
        @Override public void bytes(String name, byte[] array) { }
        @Override public void ints(String name, int[] array) { }
    }

    /** The PPU's digest term as it stands (not caught up), cached until the PPU next changes. */
    private long ppuTerm() {
        final long count = ppuChanges.count();
        if (ppuTermCount != count) {
            ppuTerm = ppu.digestTerm();
            ppuTermCount = count;
        }
        return ppuTerm;
    }

    /**
     * Equal representations, PPU not caught up (see {@link Digestible#sameRepresentationAs}): for
     * two consoles of one cartridge, equal clocks, console fields, CPU fields, PPU term as of its
     * last catch-up, APU fields and cached terms, DMA, controller and board terms and memory
     * hashes mean equal states, because the PPU's catch-up is a function of its represented
     * state, the clocks and the board's represented state and ROM only (the condition for
     * stepping it lazily at all). Every described field is compared, directly or through a
     * term; {@code SameRepresentationTest} changes each one alone to prove it.
     */
    @Override
    public boolean sameRepresentationAs(Digestible other) {
        return other instanceof Console o && o.cartridge == cartridge && sameRepresentation(o);
    }

    /**
     * {@link #sameRepresentationAs} for a console of the same cartridge. The values that change
     * nearly every cycle (clocks, console fields, RAM hash, CPU fields) are compared raw every
     * time, without short-circuits. The rest (PPU term as of its last catch-up, APU, DMA,
     * controllers, board) is compared only when either console's {@link #changes} counter has
     * moved since this check last found that rest equal with {@code o}: neither side changed
     * since, so it is still equal. A board that counts CPU cycles changes every cycle and is
     * compared every time.
     */
    private boolean sameRepresentation(Console o) {
        if ((((cycle ^ o.cycle) | (masterClock ^ o.masterClock) | (ppuCatchUp.clock() ^ o.ppuCatchUp.clock()) | (openBus ^ o.openBus)
                | (ram.hash() ^ o.ram.hash())) != 0) | !cpu.sameState(o.cpu)) {
            return false;
        }
        final long mine = changes.count();
        final long theirs = o.changes.count();
        if (mine == seenMine & theirs == seenTheirs & o == seenPartner) {
            return !boardCycles || mapper.sameState(o.mapper);
        }
        return sameCountedParts(o, mine, theirs);
    }

    /** The counted parts compared; when equal, remembered as of the counters' readings. */
    private boolean sameCountedParts(Console o, long mine, long theirs) {
        if (((ppuTerm() ^ o.ppuTerm()) | (dma.digestTerm() ^ o.dma.digestTerm())
                | (controllers.digestTerm() ^ o.controllers.digestTerm())) != 0
                || !apu.sameState(o.apu) || !mapper.sameState(o.mapper)) {
            return false;
        }
        seenPartner = o;
        seenMine = mine;
        seenTheirs = theirs;
        return true;
    }

    /** The console section, the CPU and the PPU as they stand: the start of {@link #state} and {@link #representation}. */
    private void consoleCpuAndPpu(StateVisitor s) {
        s.beginSection("console");
        cycle = s.i64("cycle", cycle);
        masterClock = s.i64("masterClock", masterClock);
        ppuCatchUp.clock(s.i64("ppuClock", ppuCatchUp.clock()));
        openBus = s.u8("openBus", openBus);
        ram.state(s);
        s.endSection();
        s.section("cpu", cpu);
        s.section("ppu", ppu);
    }

    @Override
    public void state(StateVisitor s) {
        syncPpu();
        apu.sync(); // before a reader can change the cycle it catches up to
        consoleCpuAndPpu(s);
        s.section("apu", apu);
        s.section("dma", dma);
        s.section("controllers", controllers);
        s.section("mapper", mapper);
        if (s.isReader()) {
            // The deadline as the catch-up before the visit computed it (not Long.MIN_VALUE,
            // which would catch up at the next cycle): an engine loaded from a snapshot catches
            // its PPU up at the same cycles as the engine the snapshot was taken from, so their
            // representations stay alike (CycleDigest#representation).
            ppuCatchUp.refreshDeadline();
        }
        changes.bump(); // any visitor (a reader loads, a fault poke changes a value)
    }
}
