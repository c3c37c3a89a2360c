package lockstep.nes.desktop.debug;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lockstep.nes.core.Console;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;

/**
 * One look at a machine for the debugger's panels: its described state (the same entries
 * snapshots, diffs and the verifier see) taken once, plus side-effect-free reads of the CPU
 * space and of what the PPU reads through the cartridge (pattern tables, nametables).
 */
public final class MachineView {
    private final Console console;
    private final Map<String, StateEntry> entries = new LinkedHashMap<>();

    private MachineView(Console console, List<StateEntry> described) {
        this.console = console;
        for (StateEntry e : described) {
            entries.put(e.path(), e);
        }
    }

    /** The machine as it stands now. */
    public static MachineView of(Console console) {
        return new MachineView(console, Describer.describe(console));
    }

    /** A described scalar ({@code cpu.a}, {@code ppu.v}, ...). */
    public long value(String path) {
        return entry(path).value();
    }

    /** A described memory ({@code ppu.oam}, {@code ppu.palette}, {@code console.ram}). */
    public byte[] bytes(String path) {
        StateEntry e = entry(path);
        if (e.bytes() == null) {
            throw new IllegalArgumentException(path + " is not a byte array");
        }
        return e.bytes();
    }

    public boolean has(String path) {
        return entries.containsKey(path);
    }

    private StateEntry entry(String path) {
        StateEntry e = entries.get(path);
        if (e == null) {
            throw new IllegalArgumentException("no described field " + path);
        }
        return e;
    }

    /** The CPU address space, read without side effects. */
    public int cpuPeek(int address) {
        return console.peek(address & 0xFFFF);
    }

    /**
     * The PPU address space ($0000-$3FFF) as the PPU would read it now, without side effects:
     * the cartridge below $3F00, palette RAM (with its mirrors of $3F10/$14/$18/$1C) above.
     */
    public int ppuPeek(int address) {
        address &= 0x3FFF;
        if (address >= 0x3F00) {
            return bytes("ppu.palette")[paletteIndex(address)] & 0x3F;
        }
        return console.mapper().ppuPeek(address >= 0x3000 ? address - 0x1000 : address);
    }

    /** Palette RAM index of a $3F00-$3FFF address: $3F10/$14/$18/$1C mirror $3F00/$04/$08/$0C. */
    static int paletteIndex(int address) {
        int i = address & 0x1F;
        return (i & 0x13) == 0x10 ? i & 0x0F : i;
    }
}
