package lockstep.nes.desktop.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lockstep.nes.core.Console;
import lockstep.nes.core.cpu.Cpu;

/**
 * Runs a console for the debugger: frames as usual while no breakpoint is set; with breakpoints,
 * cycle by cycle, stopping right after the CPU cycle that reads or writes a watched address, or
 * at the start of an instruction at a watched PC. Also steps one instruction, one scanline or
 * one frame. The engine runs exactly as it always does (a cycle-by-cycle run reaches the same
 * states as a whole-instruction run), so debugging never changes what the game does.
 */
public final class Debugger {
    /** What a breakpoint watches. */
    public enum Kind { PC, READ, WRITE }

    /** A breakpoint on an address of the CPU space. */
    public record Breakpoint(Kind kind, int address) {
        public Breakpoint {
            address &= 0xFFFF;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s $%04X", kind.name().toLowerCase(Locale.ROOT), address);
        }
    }

    private final List<Breakpoint> breakpoints = new ArrayList<>();
    private String stop;

    public void add(Breakpoint b) {
        if (!breakpoints.contains(b)) {
            breakpoints.add(b);
        }
    }

    public void remove(Breakpoint b) {
        breakpoints.remove(b);
    }

    public List<Breakpoint> breakpoints() {
        return List.copyOf(breakpoints);
    }

    /** Why the last run stopped early ("write $0300 at cycle 1234"), or null if it did not. */
    public String stopReason() {
        return stop;
    }

    /**
     * Runs the rest of the current frame. Returns false when a breakpoint stopped it first (the
     * console then stands right after the access, or at the watched instruction).
     */
    public boolean runFrame(Console console) {
        long frame = console.frame();
        if (breakpoints.isEmpty()) {
            stop = null;
            console.runFrame();
            return true;
        }
        return runUntil(console, () -> console.frame() != frame);
    }

    /** Runs one instruction (from an instruction start to the next); breakpoints do not stop it. */
    public void stepInstruction(Console console) {
        stop = null;
        console.runInstruction();
    }

    /** Runs to the next scanline's first dot, breakpoints honoured. Returns false if one stopped it. */
    public boolean stepScanline(Console console) {
        int line = console.ppu().scanline();
        return runUntil(console, () -> console.ppu().scanline() != line);
    }

    /** Runs to the next frame's start, breakpoints honoured. Returns false if one stopped it. */
    public boolean stepFrame(Console console) {
        long frame = console.frame();
        return runUntil(console, () -> console.frame() != frame);
    }

    private boolean runUntil(Console console, java.util.function.BooleanSupplier done) {
        stop = null;
        Cpu cpu = console.cpu();
        boolean started = false;
        while (!done.getAsBoolean()) {
            // A PC breakpoint stops before its instruction, but not before the first one run.
            if (started && cpu.atInstructionStart() && hit(Kind.PC, cpu.pc())) {
                stop = String.format(Locale.ROOT, "pc $%04X at cycle %d", cpu.pc(), console.cycles());
                return false;
            }
            started = true;
            boolean write = cpu.isWrite();
            boolean cpuAccess = write || !console.dma().wantsReadCycle();
            int address = cpu.address();
            console.runCycle();
            if (cpuAccess && hit(write ? Kind.WRITE : Kind.READ, address)) {
                stop = String.format(Locale.ROOT, "%s $%04X at cycle %d", write ? "write" : "read", address,
                        console.cycles());
                return false;
            }
        }
        return true;
    }

    private boolean hit(Kind kind, int address) {
        for (Breakpoint b : breakpoints) {
            if (b.kind() == kind && b.address() == address) {
                return true;
            }
        }
        return false;
    }
}
