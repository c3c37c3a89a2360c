package lockstep.nes.core.trace;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;

/**
 * The last few instructions an engine started, kept while it is stepped cycle by cycle (the
 * re-run that localises a divergence): {@link #observe} after every cycle records the
 * instruction the CPU is about to run whenever it stands at an instruction start.
 */
public final class TraceRing {
    private final TraceLine[] lines;
    private int next;
    private int size;
    private long lastCycle = -1;

    public TraceRing(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        lines = new TraceLine[capacity];
    }

    /** Records the instruction about to run, if {@code console} stands at an instruction start. */
    public void observe(Console console) {
        if (!console.cpu().atInstructionStart() || console.cycles() == lastCycle) {
            return;
        }
        lastCycle = console.cycles();
        lines[next] = TraceLine.of(console);
        next = (next + 1) % lines.length;
        size = Math.min(size + 1, lines.length);
    }

    /** The recorded instructions, oldest first. */
    public List<TraceLine> lines() {
        List<TraceLine> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(lines[(next - size + i + lines.length) % lines.length]);
        }
        return out;
    }
}
