package lockstep.nes.core;

/**
 * Reads of the CPU address space without side effects, for debuggers, tests and the verifier:
 * the value the CPU would read, cheats in effect included, with every register, latch, buffer
 * and counter left as it was. What the PPU and the board answer depends on what they have
 * done, so both are caught up first where the address reaches them.
 */
final class BusPeek {
    private BusPeek() {
    }

    /** What a CPU read of {@code addr} on {@code console} would return now. */
    static int peek(Console console, int addr) {
        addr &= 0xFFFF;
        final int value = bus(console, addr);
        return console.cheating ? console.cheats.apply(addr, value) : value;
    }

    private static int bus(Console n, int addr) {
        if (addr < 0x2000) {
            return n.ram().read(addr & 0x7FF);
        } else if (addr < 0x4000) {
            return n.ppu().peekRegister(addr & 7); // ppu() catches the PPU up
        } else if (addr < 0x4020) {
            return switch (addr) {
                case 0x4015 -> n.apu.peek(addr, n.openBus);
                case 0x4016 -> n.controllers().peek(0, n.openBus, n.cycle + 1);
                case 0x4017 -> n.controllers().peek(1, n.openBus, n.cycle + 1);
                default -> n.openBus;
            };
        }
        // Board registers and RAM below $8000 may depend on what the PPU did: mapper() catches
        // it up; $8000-$FFFF reads do not.
        final int v = (addr < 0x8000 ? n.mapper() : n.representedMapper()).cpuPeek(addr);
        return v < 0 ? n.openBus : v;
    }
}
