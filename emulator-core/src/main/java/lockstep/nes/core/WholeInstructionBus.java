package lockstep.nes.core;

import lockstep.nes.core.cpu.Bus;
import lockstep.nes.core.cpu.Cpu;

/**
 * The bus of whole instructions ({@link Cpu#runInstruction}): one CPU cycle per call, as
 * {@link Console#runCycle} makes it, on the console it serves.
 *
 * <p>A cycle that reads RAM or $8000-$FFFF, or writes RAM, before the PPU's and the APU's
 * deadlines (a quiet cycle, {@link Console#quietCycle}: the catch-ups of the cycle would do
 * nothing), on a board without a cycle counter, is its clocks and its access alone (seen by a
 * {@link AccessWatcher} like any other access), small enough to inline into
 * {@link Cpu#runInstruction} ({@link Bus#quietRead}); any other is the whole cycle
 * ({@link #cycleRead}, {@link #cycleWrite}). A quiet cycle changes neither /NMI nor /IRQ (only
 * catch-ups at the deadlines, register accesses and board cycles do), so the CPU polls after it
 * from the lines it last saw. Per-cycle work added to {@link Console#runCycle} must be done in
 * the quiet paths too, or make {@link Console#quietCycle} false while it is on.
 */
class WholeInstructionBus implements Bus {
    final Console console;

    WholeInstructionBus(Console console) {
        this.console = console;
    }

    @Override
    public int cycleRead(int address) {
        final Console n = console;
        n.disturbances++;
        n.masterClock += n.readClock;
        n.beginCycle();
        final int value = busRead(n, address);
        n.masterClock += n.readRest;
        n.runPpu();
        final AccessWatcher w = n.watcher;
        if (w != null) {
            w.access(address | ((long) n.openBus << 32)); // the value read, unless a $4015 read's
        }
        return value;
    }

    @Override
    public void cycleWrite(int address, int value) {
        final Console n = console;
        n.disturbances++;
        n.masterClock += n.writeClock;
        n.beginCycle();
        n.write(address, value);
        n.masterClock += n.writeRest;
        n.runPpu();
        final AccessWatcher w = n.watcher;
        if (w != null) {
            w.access(address | (1L << 24) | ((long) value << 32));
        }
    }

    @Override
    public int quietRead(int address) {
        final Console n = console;
        if ((address < 0x2000 || address >= 0x8000) && n.quietCycle()) {
            n.cycle++;
            n.masterClock += n.readClock;
            int value;
            if (address < 0x2000) {
                value = n.ramData[address & 0x7FF] & 0xFF;
            } else {
                final int[] pages = n.romPages;
                if (pages != null) {
                    // Mapper.cpuRead's own read without the call, the page table one load
                    // nearer (the ROM's load runs beside it): the opcode and operand fetches.
                    value = n.mapper.prgRom()[pages[(address >> 13) & 3] | (address & 0x1FFF)] & 0xFF;
                } else {
                    value = n.mapper.cpuRead(address);
                    if (value < 0) {
                        value = n.openBus;
                    }
                }
            }
            n.openBus = value;
            n.masterClock += n.readRest;
            final AccessWatcher w = n.watcher;
            if (w != null) {
                w.quietAccess(address | ((long) value << 32));
            }
            return value;
        }
        return -1;
    }

    @Override
    public int quietWrite(int address, int value) {
        final Console n = console;
        if (address < 0x2000 && n.quietCycle()) {
            n.disturbances++;
            n.cycle++;
            n.masterClock += n.cpuDivider;
            n.openBus = value;
            n.ram.write(address & 0x7FF, value);
            final AccessWatcher w = n.watcher;
            if (w != null) {
                w.quietAccess(address | (1L << 24) | ((long) value << 32));
            }
            return 0;
        }
        return -1;
    }

    /** The read of a whole cycle, at its bus access ({@link Console#read}). */
    int busRead(Console n, int address) {
        return n.read(address);
    }

    @Override
    public boolean nmiLow() {
        return console.ppu.nmiOutput();
    }

    @Override
    public boolean irqLow() {
        final Console n = console;
        return n.apu.irq() || (n.boardIrq && n.mapper.irq());
    }

    /**
     * The bus of whole instructions while cheats are in effect: a read of an address a cheat
     * names is never quiet (the CPU takes the whole cycle, {@link #cycleRead}), and sees the
     * cheat's value ({@link #busRead}); every other access is the plain bus's
     * (why an override costs nothing without cheats: docs/design/performance.md).
     */
    static final class Cheating extends WholeInstructionBus {
        Cheating(Console console) {
            super(console);
        }

        /**
         * A CPU read: {@link Console#read}, then, where a cheat names the address, the cheat's
         * value in place of the bus's (Game Genie: the cartridge's byte, which an 8-letter
         * code's compare value is checked against). The cheat drives the data bus.
         */
        @Override
        int busRead(Console n, int address) {
            final int value = n.read(address);
            if (!n.cheats.names(address)) {
                return value;
            }
            final int cheated = n.cheats.apply(address, value);
            n.openBus = cheated;
            return cheated;
        }

        @Override
        public int quietRead(int address) {
            return console.cheats.names(address) ? -1 : super.quietRead(address);
        }
    }
}
