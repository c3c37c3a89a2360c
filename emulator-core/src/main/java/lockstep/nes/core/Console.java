package lockstep.nes.core;

import lockstep.nes.core.apu.Apu;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.ppu.Ppu;
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
 * <p>When the board never looks at the PPU's bus ({@link lockstep.nes.ppu.PpuBus#direct} is
 * non-null), nothing outside the PPU can see its progress between accesses that observe it, so
 * the PPU is caught up lazily ({@link #syncPpu}): before every PPU register or board access,
 * when it reaches a dot that changes /NMI or the frame counter, and before anyone looks at it
 * ({@link #ppu}, {@link #frame}, {@link #state}). Every observation is the same as with the PPU
 * stepped in lockstep; boards that watch the bus (A12 counters, CHR latches) step it eagerly.
 */
public final class Console implements Digestible {
    private static final long S_CONSOLE = DigestKeys.section("console");
    private static final long S_CPU = DigestKeys.section("cpu");
    private static final long S_PPU = DigestKeys.section("ppu");
    private static final long S_APU = DigestKeys.section("apu");
    private static final long S_DMA = DigestKeys.section("dma");
    private static final long S_CONTROLLERS = DigestKeys.section("controllers");
    private static final long S_MAPPER = DigestKeys.section("mapper");

    private static final int CPU_DIVIDER = 12;
    private static final int PPU_DIVIDER = 4;
    private static final int PPU_OFFSET = 1;

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
    private long ppuClock;
    /** The last value seen on the CPU data bus. */
    private int openBus;

    /** True when the PPU may run behind (see the class comment). Fixed wiring, not state. */
    private final boolean lazyPpu;
    /**
     * The master clock (less the PPU offset) at which the PPU must next be caught up. Derived
     * from the PPU's position (a cache, not state); Long.MIN_VALUE forces a catch-up.
     */
    private long ppuDeadline = Long.MIN_VALUE;
    /**
     * The PPU's digest term as of its last catch-up, for {@link #sameRepresentationAs}: the PPU
     * changes only inside {@link #syncPpu} (which every path that runs or touches it calls first)
     * and {@link #power}, both of which clear {@link #ppuTermValid}. A cache, not state.
     */
    private long ppuTerm;
    private boolean ppuTermValid;

    private Console(Cartridge cartridge, Mapper mapper) {
        this.cartridge = cartridge;
        this.mapper = mapper;
        this.ppu = new Ppu(mapper);
        this.lazyPpu = mapper.direct() != null;
        power();
    }

    /** Builds an engine for {@code cartridge}, powered on. */
    public static Console create(Cartridge cartridge) throws RomFormatException {
        return new Console(cartridge, cartridge.createMapper());
    }

    /** Power cycle: everything back to its power-on state, then the CPU's reset sequence. */
    public void power() {
        ram.fill(0);
        cycle = -1;
        masterClock = CPU_DIVIDER;
        ppuClock = 0;
        openBus = 0;
        ppuDeadline = Long.MIN_VALUE;
        ppuTermValid = false;
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
    }

    /** Runs one CPU cycle (which may be a DMA cycle while the CPU is halted). */
    public void runCycle() {
        final Cpu c = cpu;
        if (c.isWrite()) {
            startCycle(false);
            write(c.address(), c.dataOut());
            endCycle(false);
            c.tick(0);
        } else if (dma.wantsReadCycle()) {
            dma.cycle(c.address());
        } else {
            startCycle(true);
            int value = read(c.address());
            endCycle(true);
            c.tick(value);
        }
        c.pollInterrupts(ppu.nmiOutput(), apu.irq() || mapper.irq());
    }

    /** Runs until the PPU finishes the current frame. */
    public void runFrame() {
        long frame = ppu.frameCount();
        while (ppu.frameCount() == frame) {
            runCycle();
        }
    }

    /** Runs until the CPU is about to fetch an opcode (at least one cycle). */
    public void runInstruction() {
        do {
            runCycle();
        } while (!cpu.atInstructionStart());
    }

    void startCycle(boolean read) {
        masterClock += read ? 5 : 7;
        cycle++;
        runPpu();
        apu.cycle();
        mapper.cpuCycle();
    }

    void endCycle(boolean read) {
        masterClock += read ? 7 : 5;
        runPpu();
    }

    private void runPpu() {
        if (masterClock - PPU_OFFSET >= ppuDeadline) {
            syncPpu();
        }
    }

    /** Runs the PPU up to the present master clock (less its offset). */
    private void syncPpu() {
        ppuTermValid = false;
        final long target = masterClock - PPU_OFFSET;
        final long dots = (target - ppuClock) >> 2;
        if (dots > 0) {
            ppuClock += dots * PPU_DIVIDER;
            ppu.run((int) dots);
        }
        if (lazyPpu) {
            ppuDeadline = ppuClock + (long) ppu.dotsToEvent() * PPU_DIVIDER;
        }
    }

    /** A CPU bus read with side effects. */
    int read(int addr) {
        int value;
        if (addr < 0x2000) {
            value = ram.read(addr & 0x7FF);
        } else if (addr < 0x4000) {
            syncPpu();
            value = ppu.readRegister(addr & 7);
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
        return S_CONSOLE * (DigestKeys.W0 * cycle + DigestKeys.W1 * masterClock + DigestKeys.W2 * ppuClock
                        + DigestKeys.W3 * (openBus & 0xFFL) + DigestKeys.W4 * ram.hash())
                + S_CPU * cpu.digestTerm()
                + S_PPU * ppuTerm()
                + S_APU * apu.digestTerm()
                + S_DMA * dma.digestTerm()
                + S_CONTROLLERS * controllers.digestTerm()
                + S_MAPPER * mapper.digestTerm();
    }

    /** The PPU's digest term as it stands (not caught up), cached until the PPU next changes. */
    private long ppuTerm() {
        if (!ppuTermValid) {
            ppuTerm = ppu.digestTerm();
            ppuTermValid = true;
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
        return other instanceof Console o && o.cartridge == cartridge
                && ((cycle ^ o.cycle) | (masterClock ^ o.masterClock) | (ppuClock ^ o.ppuClock)
                        | (openBus ^ o.openBus) | (ram.hash() ^ o.ram.hash()) | (ppuTerm() ^ o.ppuTerm())) == 0
                && cpu.sameState(o.cpu)
                && apu.sameState(o.apu)
                && dma.digestTerm() == o.dma.digestTerm()
                && controllers.digestTerm() == o.controllers.digestTerm()
                && mapper.sameState(o.mapper);
    }

    @Override
    public void state(StateVisitor s) {
        syncPpu();
        s.beginSection("console");
        cycle = s.i64("cycle", cycle);
        masterClock = s.i64("masterClock", masterClock);
        ppuClock = s.i64("ppuClock", ppuClock);
        openBus = s.u8("openBus", openBus);
        ram.state(s);
        s.endSection();
        s.section("cpu", cpu);
        s.section("ppu", ppu);
        s.section("apu", apu);
        s.section("dma", dma);
        s.section("controllers", controllers);
        s.section("mapper", mapper);
        if (s.isReader()) {
            ppuDeadline = Long.MIN_VALUE;
        }
    }
}
