package lockstep.nes.core;

import static lockstep.nes.core.ConsoleSections.APU;
import static lockstep.nes.core.ConsoleSections.CHEATS;
import static lockstep.nes.core.ConsoleSections.CONSOLE;
import static lockstep.nes.core.ConsoleSections.CONTROLLERS;
import static lockstep.nes.core.ConsoleSections.CPU;
import static lockstep.nes.core.ConsoleSections.DMA;
import static lockstep.nes.core.ConsoleSections.MAPPER;
import static lockstep.nes.core.ConsoleSections.PPU;

import lockstep.nes.state.NotState;

import lockstep.nes.core.apu.Apu;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.Cheats;
import lockstep.nes.core.cpu.Bus;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * One engine: CPU, PPU, APU, DMA, controllers and a cartridge, driven by a master clock.
 *
 * <p>The unit of progress is one CPU cycle ({@link #runCycle}). NTSC timing: one CPU cycle is
 * 12 master clocks and one PPU dot is 4 (PAL: 16 and 5; Dendy: 15 and 5; see {@link Region}).
 * Within a CPU cycle the PPU is caught up to the moment of the bus access (5 master clocks in
 * for a read, 7 for a write, on NTSC) and then to the end of the cycle, so PPU register
 * accesses land on the right dot. The PPU runs one master clock behind the CPU (the power-on
 * alignment that the hardware tests expect).
 *
 * <p>The PPU may run behind the CPU until something could observe it ({@link PpuCatchUp}): it
 * is caught up before every PPU register or board access, at its deadlines, and before anyone
 * looks at it ({@link #ppu}, {@link #frame}, {@link #state}).
 */
public final class Console implements Digestible {
    /** The console's region (see {@link Region}): its clocks, frame and APU tables. Fixed wiring. */
    private final Region region;
    // The region's CPU cycle in master clocks (fixed wiring, read on every cycle): its length, the
    // bus access's place in it for a read and a write, and the rest of the cycle after each.
    final int cpuDivider;
    final int readClock;
    final int writeClock;
    final int readRest;
    final int writeRest;

    private final Cartridge cartridge;
    final Mapper mapper;
    private final Cpu cpu = new Cpu();
    final Ppu ppu;
    private final Dma dma = new Dma(this);
    /** The APU, which also steps and mixes the board's sound chip ({@link BoardHooks#AUDIO}). */
    final Apu apu;
    private final Controllers controllers = new Controllers();
    final Memory ram = new Memory("ram", Memory.RAM, 2048);
    /** The cheat codes in effect: described as a section of their own while any is ({@link #state}). */
    final Cheats cheats = new Cheats();
    /**
     * Whether any cheat is in effect: CPU reads then go through the cheat-aware bus's read and whole
     * instructions run on {@link CheatBus}, so a console without cheats runs the plain paths only.
     */
    @NotState("cache of cheats.active(), rebuilt wherever the cheats change")
    boolean cheating;

    /** CPU cycles started since power-on, minus one (-1 at power, as the reset sequence starts). */
    long cycle;
    long masterClock;
    /** The last value seen on the CPU data bus. */
    int openBus;
    /** {@link QuietBound#before} as of the last deadline set; Long.MIN_VALUE: to be found again. */
    @NotState("cache of the PPU's and the APU's deadlines, in master clocks")
    private long quietBefore = Long.MIN_VALUE;

    /**
     * Counts every change of the parts that change only on events: the PPU (counted here, at
     * each catch-up, power, reset and state visit), the APU, DMA, controllers and board (each
     * counting its own). Clocks, console fields, CPU RAM and CPU are not counted: they change
     * nearly every cycle and the lockstep check compares them every time. Wiring, not state.
     */
    private final ChangeCounter changes = new ChangeCounter();
    /** The PPU's own changes, each counted in {@link #changes} too: a cache of the PPU's term keys on it. */
    private final ChangeCounter ppuChanges = new ChangeCounter(changes);
    /** Runs the PPU up to the master clock, lazily where nothing could see the difference. */
    private final PpuCatchUp ppuCatchUp;
    /** Sees whole instructions' bus accesses while a lockstep chain runs (see {@link AccessWatcher}). */
    @NotState("the lockstep chain attached during a chained run; null between runs")
    AccessWatcher watcher;
    /** Watches for a spin loop that {@link #runFrame} may count rather than run. */
    @NotState("bookkeeping of the spin-loop fast path, forgotten at every frame start, chained stretch and state visit")
    private final SpinSkip spin = new SpinSkip(this::peek);
    /**
     * Counts the accesses a spin loop must not make (any but a quiet read, see
     * {@link WholeInstructionBus}), so that {@link #spin} sees whether an iteration made one.
     */
    @NotState("bookkeeping of the spin-loop fast path: only compared within a frame")
    long disturbances;
    /** {@link #disturbances} at the last backward jump {@link #afterBackJump} saw. */
    @NotState("bookkeeping of the spin-loop fast path: only compared within a frame")
    private long backJumpDisturbances;
    /** False for the reference that runs every spin loop (for tests). Fixed wiring. */
    private final boolean spinSkip;

    // Fixed wiring decided once from the board's declared hooks (not state): hooks a board does
    // not declare cost nothing per cycle.
    /** The board counts CPU cycles ({@link BoardHooks#CPU_CYCLE}). */
    private final boolean boardCycles;
    /** The board can pull /IRQ low ({@link BoardHooks#IRQ}). */
    final boolean boardIrq;
    /** The board watches writes to the PPU's registers ({@link BoardHooks#PPU_REGISTERS}). */
    private final boolean boardPpuRegisters;
    /**
     * The PPU is caught up at the start of every cycle, before the board counts it. Not needed
     * for a lazy PPU on a board that neither counts cycles nor watches the PPU bus: nothing
     * between the start of the cycle and the access looks at the PPU, and accesses that do
     * observe it catch it up themselves.
     */
    private final boolean syncAtStart;
    /**
     * A PPU register write that changes only t, w and the open-bus latch may land before the
     * lazily stepped PPU catches up ({@link Ppu#writeLandsAhead}); not with a board that watches
     * the register writes, which sees them with the PPU on their dot.
     */
    private final boolean writesLandAhead;
    @NotState("a count for tests: PPU register writes that landed before the PPU caught up")
    private long writesLandedAhead;
    /** The 2 KiB CPU RAM's live array (reads only; writes go through {@link #ram}). */
    final byte[] ramData;
    /** The board's PRG page table where its $8000-$FFFF reads are plain ({@link Mapper#plainRomPages}), else null. */
    final int[] romPages;

    private Console(Cartridge cartridge, Mapper mapper, boolean eager, boolean spinSkip) {
        this.cartridge = cartridge;
        this.spinSkip = spinSkip;
        this.mapper = mapper;
        this.region = cartridge.region();
        this.cpuDivider = region.cpuDivider;
        this.readClock = region.readClock;
        this.writeClock = region.writeClock;
        this.readRest = cpuDivider - readClock;
        this.writeRest = cpuDivider - writeClock;
        this.apu = new Apu(dma, region, mapper.hasHook(BoardHooks.AUDIO) ? mapper.expansionAudio() : null);
        this.ppu = new Ppu(mapper, region);
        this.ppuCatchUp = new PpuCatchUp(ppu, mapper, changes, eager, region, this::deadlinesMoved);
        apu.onDeadlineSet(this::deadlinesMoved);
        this.boardCycles = mapper.hasHook(BoardHooks.CPU_CYCLE);
        this.boardIrq = mapper.hasHook(BoardHooks.IRQ);
        this.boardPpuRegisters = mapper.hasHook(BoardHooks.PPU_REGISTERS);
        this.syncAtStart = !ppuCatchUp.lazy() || boardCycles || ppuCatchUp.boardBound();
        this.writesLandAhead = ppuCatchUp.lazy() && !boardPpuRegisters;
        this.ramData = ram.array();
        this.romPages = mapper.plainRomPages();
        mapper.attach(this::busTime);
        mapper.trackChanges(changes);
        ppu.trackChanges(ppuChanges);
        apu.trackChanges(new ChangeCounter(changes)); // its own count: Apu#changeCount
        dma.trackChanges(changes);
        controllers.trackChanges(new ChangeCounter(changes)); // its own count: Controllers#changeCount
        cheats.set(cartridge.cheats());
        cheatsChanged();
        power();
    }

    /**
     * Puts {@code list} in effect in place of the cheats there were (at most {@link Cheats#MAX}):
     * from the next CPU read on, reads of their addresses see their values.
     */
    public void setCheats(java.util.List<Cheat> list) {
        cheats.set(list);
        cheatsChanged();
        changes.bump();
    }

    /** The cheats in effect (read-only view: change them through {@link #setCheats}). */
    public java.util.List<Cheat> cheats() {
        return cheats.list();
    }

    /** The digest term of the cheats' section (0 without cheats; counted in {@link #changeCount} when they change). */
    public long cheatsTerm() {
        return cheats.term();
    }

    /** After the cheats changed: reads take the cheat-aware paths only while a cheat is in effect. */
    private void cheatsChanged() {
        cheating = cheats.active();
        if (cheating && cheatBus == null) {
            cheatBus = new WholeInstructionBus.Cheating(this);
        }
        bus = cheating ? cheatBus : plainBus;
    }

    /** Builds an engine for {@code cartridge}, powered on. */
    public static Console create(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper(), false, true);
    }

    /**
     * Builds an engine for {@code cartridge} on a board built outside it (an NSF's player
     * hardware, {@code lockstep.nes.core.nsf.NsfBoard}), powered on.
     */
    public static Console create(Cartridge cartridge, Mapper board) {
        return new Console(cartridge, board, false, true);
    }

    /**
     * An engine that steps the PPU with the CPU whatever the board (the reference the lazily
     * stepped PPU must equal at every cycle; for tests).
     */
    static Console createEager(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper(), true, true);
    }

    /**
     * An engine that runs every iteration of a spin loop (the reference for {@link #runFrame}'s
     * count, for tests; the speed strict lockstep is measured against, {@code bench --no-spin-skip}).
     */
    public static Console createWithoutSpinSkip(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper(), false, false);
    }

    /** Power cycle: everything back to its power-on state, then the CPU's reset sequence. */
    public void power() {
        apu.sync(); // the audio of the cycles before the power cycle, as if stepped eagerly
        ram.fill(0);
        cycle = -1;
        masterClock = cpuDivider;
        deadlinesMoved();
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

    /** Draws the picture or not ({@link Ppu#drawPicture}): the same states either way; catches nothing up. */
    public void drawPicture(boolean on) {
        ppu.drawPicture(on);
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
        disturbances++; // a cycle run alone is never part of a countable spin loop (see skipSpin)
        final Cpu c = cpu;
        final boolean write = c.isWrite();
        if (write || !dma.wantsReadCycle()) {
            // The bus access is 7 master clocks into a write cycle, 5 into a read cycle (NTSC).
            final int access = write ? writeClock : readClock;
            masterClock += access;
            beginCycle();
            int value = 0;
            if (write) {
                write(c.address(), c.dataOut());
            } else {
                value = cheating ? cheatBus.busRead(this, c.address()) : read(c.address());
            }
            masterClock += cpuDivider - access;
            runPpu();
            c.tick(value);
        } else {
            c.haltedOnRead();
            dma.cycle(c.address());
        }
        c.pollInterrupts(ppu.nmiOutput(), apu.irq() || (boardIrq && mapper.irq()));
    }

    /**
     * The work at the start of every CPU cycle once the master clock is at the bus access: the
     * PPU caught up to it (when someone before the access could see it), the APU and the
     * board's cycle counter clocked.
     */
    void beginCycle() {
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
     * Runs until the PPU finishes the current frame: whole instructions and interrupt sequences
     * at once where that is the same as cycle by cycle ({@link #wholeInstructionSafe}), else one
     * cycle at a time.
     */
    public void runFrame() {
        final long frame = ppu.frameCount();
        final Cpu c = cpu;
        spin.forget();
        while (ppu.frameCount() == frame) {
            // Whole instructions in a loop of their own, first in the bytecode, so that the JIT
            // inlines them before the rarer paths (docs/design/performance.md, "The chained
            // loop's shape").
            while (c.atInstructionStart() && wholeInstructionSafe() && frameCannotEndWithin()) {
                c.runInstruction(bus);
                if (c.pc() <= c.instructionPc()) {
                    afterBackJump(Long.MAX_VALUE);
                }
            }
            if (ppu.frameCount() != frame) {
                break;
            }
            if (c.atInterruptStart() && wholeInstructionSafe() && frameCannotEndWithin()) {
                c.runInterrupt(bus);
            } else {
                runCycle();
            }
        }
    }

    /**
     * After a whole instruction ({@link #runWholeInstruction}) that left the CPU at or before its
     * own address: counts on the clocks, rather than runs, the iterations of a spin loop that
     * came round with nothing but quiet reads ({@link SpinSkip}), up to a loop's length before
     * the PPU's deadline, the APU's next event and cycle {@code limit}. Returns the cycles
     * skipped.
     */
    public long skipSpin(long limit) {
        if (!spinSkip || !cpu.atInstructionStart()) {
            return 0;
        }
        final long period = spin.cameRound(cpu, cycle, disturbances, openBus);
        final long due = ppuCatchUp.dueClock();
        if (period == 0 || due <= masterClock) {
            return 0;
        }
        final long quiet = Math.min(Math.min(apu.nextEventCycle() - cycle - 1, (due - masterClock - 1) / cpuDivider),
                limit - cycle);
        final long skipped = spin.count(cpu, period, quiet);
        cycle += skipped;
        masterClock += skipped * cpuDivider;
        return skipped;
    }

    /**
     * {@link #skipSpin} after a loop's back jump. A loop whose last turn made a non-quiet access
     * cannot be counted, so then it only notes where the count of such accesses stands, sparing
     * the call. Returns the cycles skipped.
     */
    public long afterBackJump(long limit) {
        if (disturbances == backJumpDisturbances) {
            return skipSpin(limit);
        }
        backJumpDisturbances = disturbances;
        return 0;
    }

    /** The CPU cycles of spin-loop iterations counted rather than run ({@link #skipSpin}) by this engine. */
    public long spinCyclesSkipped() {
        return spin.skipped();
    }

    /** Runs until the CPU is about to fetch an opcode (at least one cycle). */
    public void runInstruction() {
        final Cpu c = cpu;
        do {
            if (c.atInstructionStart() && wholeInstructionSafe()) {
                c.runInstruction(bus);
            } else if (c.atInterruptStart() && wholeInstructionSafe()) {
                c.runInterrupt(bus);
            } else {
                runCycle();
            }
        } while (!c.atInstructionStart());
    }

    /**
     * True when the coming instruction (the CPU at its opcode fetch) or interrupt sequence may
     * run as a whole ({@link Cpu#runInstruction}, {@link Cpu#runInterrupt}): the fetch is a read,
     * and the DMA unit cannot take any of its read cycles. DMA starts by a $4014 or $4015 write (which no instruction follows with a
     * read other than JSR's, after its pushes to the stack page) or by a DMC request, which the
     * APU makes only at a visible event, not before its {@link Apu#nextEventCycle}.
     */
    public boolean wholeInstructionSafe() {
        return !cpu.isWrite() && !dma.wantsReadCycle()
                && apu.nextEventCycle() > cycle + Cpu.MAX_INSTRUCTION_CYCLES;
    }

    /**
     * True when the frame cannot end inside the coming instruction, so {@link #runFrame} stops
     * where it would cycle by cycle: the PPU's frame-counter increment is one of the dots its
     * deadline stops at, and no access moves that dot earlier (an eagerly stepped PPU has no
     * deadline: never true).
     */
    public boolean frameCannotEndWithin() {
        return !ppuCatchUp.isDue(masterClock + (long) Cpu.MAX_INSTRUCTION_CYCLES * cpuDivider);
    }

    /** The bus of whole instructions without cheats ({@link WholeInstructionBus}). */
    private final WholeInstructionBus plainBus = new WholeInstructionBus(this);
    /** {@link #plainBus}'s cheat-aware twin, built when a cheat is first put in effect. */
    @NotState("wiring: the bus of whole instructions while cheats are in effect")
    private WholeInstructionBus cheatBus;
    /** The bus whole instructions run on: {@link #plainBus}, or {@link #cheatBus} while a cheat is in effect. */
    @NotState("wiring chosen from the cheats (cheatsChanged)")
    private Bus bus;

    /** True when the coming cycle is quiet ({@link QuietBound}); chains see quiet accesses as any other. */
    boolean quietCycle() {
        return masterClock < quietBefore || quietAfterRefresh();
    }

    /** {@link #quietCycle}'s reference: the deadlines read afresh (for tests). */
    boolean quietCycleAfresh() {
        return QuietBound.afresh(ppuCatchUp, apu, boardCycles, cycle, masterClock, cpuDivider);
    }

    /** Either deadline was set, or the clocks were loaded: the bound is found again when next asked. */
    private void deadlinesMoved() {
        quietBefore = Long.MIN_VALUE;
    }

    /** {@link #quietCycle} past the bound it had: the bound found again from the deadlines. */
    private boolean quietAfterRefresh() {
        if (boardCycles) {
            return false;
        }
        final long bound = QuietBound.before(ppuCatchUp, apu, cycle, masterClock, cpuDivider);
        quietBefore = bound;
        return masterClock < bound;
    }

    /**
     * Attaches {@code w} to see whole instructions' bus accesses (null: none, the default); the
     * spin-loop watch starts afresh ({@link #skipSpin}).
     */
    public void watchAccesses(AccessWatcher w) {
        watcher = w;
        spin.forget(); // a chained stretch starts its spin-loop watch afresh, as runFrame does
    }

    /**
     * Runs the coming instruction as a whole ({@link Cpu#runInstruction}), the CPU at its opcode
     * fetch and {@link #wholeInstructionSafe} true: the same as running its cycles one by one.
     */
    public void runWholeInstruction() {
        cpu.runInstruction(bus);
    }

    /** {@link #runWholeInstruction} for the IRQ or NMI sequence the CPU is at the start of. */
    public void runWholeInterrupt() {
        cpu.runInterrupt(bus);
    }

    /** Starts a CPU cycle and runs up to its bus access (DMA cycles; {@link #runCycle} inlines this). */
    void startCycle(boolean read) {
        masterClock += read ? readClock : writeClock;
        beginCycle();
    }

    void endCycle(boolean read) {
        masterClock += read ? readRest : writeRest;
        runPpu();
    }

    void runPpu() {
        if (ppuCatchUp.isDue(masterClock)) {
            syncPpu();
        }
    }

    /** PPU register writes that landed before the lazily stepped PPU caught up to them (for tests). */
    long writesLandedAhead() {
        return writesLandedAhead;
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
                case 0x4016 -> value = controllers.read(0, openBus, cycle);
                case 0x4017 -> value = controllers.read(1, openBus, cycle);
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
            if (writesLandAhead && ppu.writeLandsAhead(addr, value, ppuCatchUp.dotsBehind(masterClock))) {
                // Only t, w and the open-bus latch change, and the dots the PPU has yet to run
                // read none of them: the PPU need not be caught up first.
                ppu.writeRegister(addr & 7, value);
                writesLandedAhead++;
                return;
            }
            syncPpu();
            ppu.writeRegister(addr & 7, value);
            if (boardPpuRegisters) {
                mapper.busPpuRegisterWrite(addr, value);
            }
            if (BOUND_REGISTERS[addr & 7]) {
                ppuCatchUp.boardBoundStale();
            }
        } else if (addr < 0x4020) {
            switch (addr) {
                case 0x4014 -> dma.startOam(value);
                case 0x4016 -> controllers.write(value, cycle);
                default -> apu.write(addr, value);
            }
        } else {
            // A board write may switch banks or mirroring: the PPU must have read with the old ones.
            syncPpu();
            mapper.busWrite(addr, value);
            ppuCatchUp.boardBoundStale();
        }
    }

    /**
     * Reads the CPU address space without side effects (debuggers, tests, the verifier), as the
     * CPU would read it: cheats in effect included ({@link BusPeek}).
     */
    public int peek(int addr) {
        return BusPeek.peek(this, addr);
    }

    /** The last value seen on the CPU data bus. */
    public int openBus() {
        return openBus;
    }

    /** A DMA cycle left {@code value} on the external data bus (what open-bus reads return next). */
    void leaveOnBus(int value) {
        openBus = value & 0xFF;
    }

    /**
     * The master clock: 12 per CPU cycle, the bus access 5 (read) or 7 (write) into it (NTSC; the
     * other regions' figures are {@link Region}'s).
     */
    public long masterClock() {
        return masterClock;
    }

    /** The master clock (less the PPU's offset) the PPU has been caught up to. */
    public long ppuClock() {
        return ppuCatchUp.clock();
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

    /** A count that moves whenever the PPU may have changed (each move counted in {@link #changeCount} too). */
    public long ppuChangeCount() {
        return ppuChanges.count();
    }

    /**
     * The board counts CPU cycles ({@link Mapper#cpuCycle}): its state moves every cycle, with no
     * move of {@link #changeCount}.
     */
    public boolean boardCountsCycles() {
        return boardCycles;
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
    /**
     * The PPU as of its last catch-up, not caught up (the representation digest's view; only
     * {@link #ppu} gives the present).
     */
    public Ppu representedPpu() { return ppu; }
    /** The board as of the PPU's last catch-up (the representation digest's view; see {@link #mapper}). */
    public Mapper representedMapper() { return mapper; }
    public Controllers controllers() { return controllers; }
    public Cartridge cartridge() { return cartridge; }
    /** The console's region (from the cartridge: its header, or the user's choice). */
    public Region region() { return region; }
    /** The 2 KiB CPU RAM. */
    public Memory ram() { return ram; }

    /** The whole machine's digest term: {@code DigestTerm.of(this)} through each component's fast path. */
    @Override
    public long digestTerm() {
        syncPpu(); // the digest is of the state at this cycle, lazily stepped PPU included
        return CONSOLE * (DigestKeys.W0 * cycle + DigestKeys.W1 * masterClock + DigestKeys.W2 * ppuCatchUp.clock()
                        + DigestKeys.W3 * (openBus & 0xFFL) + DigestKeys.W4 * ram.hash())
                + CPU * cpu.digestTerm()
                + PPU * ppu.digestTerm()
                + APU * apu.digestTerm()
                + DMA * dma.digestTerm()
                + CONTROLLERS * controllers.digestTerm()
                + MAPPER * mapper.digestTerm()
                + CHEATS * cheats.term();
    }

    /**
     * Visits the described state as it is represented, in {@link #state}'s order, without
     * catching anything up: the PPU as of its last catch-up and the APU as of
     * {@link Apu#syncedCycle}. The reference definition of the representation digest's fast path
     * ({@code RepresentationTerm}, pinned to this by {@code CycleDigest#recomputeRepresentation}). For writers only; values a visitor returns
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
        if (cheats.described()) {
            s.section("cheats", cheats);
        }
        changes.bump();
    }

    /**
     * Puts this console through the visit a state fault makes ({@link #state} with a reader),
     * changing nothing: everything caught up, caches rebuilt, memories rehashed, deadlines
     * computed afresh. When one engine of a pair gets a state fault (a poke goes through
     * {@link #state}), its partner is revisited at the same cycle, so that a fault that writes
     * the value already there leaves the two represented alike ({@code RepresentationTerm}).
     */
    public void revisit() {
        state(PassThroughReader.READER);
    }

    /** The console section, the CPU and the PPU as they stand: the start of {@link #state} and {@link #representation}. */
    private void consoleCpuAndPpu(StateVisitor s) {
        s.beginSection("console");
        cycle = s.i64("cycle", cycle, -1, Long.MAX_VALUE);
        masterClock = s.i64("masterClock", masterClock, cpuDivider, Long.MAX_VALUE);
        deadlinesMoved();
        ppuCatchUp.clock(s.i64("ppuClock", ppuCatchUp.clock(), 0, Long.MAX_VALUE));
        openBus = s.u8("openBus", openBus);
        ram.state(s);
        s.endSection();
        s.section("cpu", cpu);
        s.section("ppu", ppu);
    }

    @Override
    public void state(StateVisitor s) {
        state(s, cheats.described());
    }

    /**
     * {@link #state} with the {@code cheats} section visited or not as a snapshot being loaded
     * has it ({@code lockstep.nes.core.snapshot.Snapshots}): a reader that loads one without it
     * empties the cheats.
     */
    public void state(StateVisitor s, boolean cheatsSection) {
        spin.forget();
        syncPpu();
        apu.sync(); // before a reader can change the cycle it catches up to
        consoleCpuAndPpu(s);
        s.section("apu", apu);
        s.section("dma", dma);
        s.section("controllers", controllers);
        s.section("mapper", mapper);
        if (cheatsSection) {
            s.section("cheats", cheats);
        } else if (s.isReader() && cheats.described()) {
            cheats.clear();
        }
        if (s.isReader()) {
            cheatsChanged();
            // The deadline as the catch-up before the visit computed it (not Long.MIN_VALUE,
            // which would catch up at the next cycle): an engine loaded from a snapshot catches
            // its PPU up at the same cycles as the engine the snapshot was taken from, so their
            // representations stay alike (CycleDigest#representation).
            ppuCatchUp.refreshDeadline();
        }
        changes.bump(); // any visitor (a reader loads, a fault poke changes a value)
    }
}
