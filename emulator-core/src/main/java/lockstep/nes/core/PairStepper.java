package lockstep.nes.core;

import java.util.Arrays;
import lockstep.nes.core.cpu.Cpu;

/**
 * The same-thread lockstep's step over whole instructions: two engines of one cartridge each run
 * their coming instruction at once ({@link Console#runTracedInstruction}) and are compared after
 * every cycle of it, through the records each cycle leaves, and in full at its end. Used where no
 * fault is due inside the instruction; elsewhere the verifier steps both engines one cycle at a
 * time and compares them after each.
 */
public final class PairStepper {
    private final Console a;
    private final Console b;
    private final long[] ta = new long[Console.TRACE_LENGTH];
    private final long[] tb = new long[Console.TRACE_LENGTH];
    // Where the last whole instruction left both engines, equal in representation: while neither
    // has moved or counted a change since, the next one may start without checking them again.
    private long lastCycle = -1;
    private long lastCountA;
    private long lastCountB;

    public PairStepper(Console a, Console b) {
        this.a = a;
        this.b = b;
    }

    /**
     * When both engines can run their coming instruction as a whole
     * ({@link Console#canRunWholeInstruction}), runs it in both and returns the cycles it took
     * when they stayed equal after every one of them, or -1 when they did not: the first
     * differing cycle is then one of the last {@link Cpu#MAX_INSTRUCTION_CYCLES} (find it by
     * re-running them cycle by cycle from an earlier equal state). Returns 0, running nothing,
     * when either engine cannot run its coming instruction as a whole.
     */
    public int stepInstruction() {
        if (!a.canRunWholeInstruction() || !b.canRunWholeInstruction() || !comparable()) {
            return 0;
        }
        final int na = a.runTracedInstruction(ta);
        final int nb = b.runTracedInstruction(tb);
        if (na != nb || !Arrays.equals(ta, 0, na, tb, 0, nb) || !a.sameRepresentationAs(b)) {
            return -1;
        }
        lastCycle = a.cycles();
        lastCountA = a.changeCount();
        lastCountB = b.changeCount();
        return na / Console.TRACE_STRIDE;
    }

    /**
     * True when the engines' records can be compared: their representations are equal (the
     * records hold represented values, such as the lazily stepped PPU's clock). Two engines in
     * the same state may represent it differently when something caught only one of them up
     * (asking one its frame, say): then both are caught up, which changes no state. False when
     * they still differ (they may differ in state: the caller steps them one cycle at a time and
     * compares their digests).
     */
    private boolean comparable() {
        if (a.cycles() == lastCycle && a.changeCount() == lastCountA && b.changeCount() == lastCountB) {
            return true; // as the last whole instruction left them
        }
        if (!a.sameRepresentationAs(b)) {
            a.catchUp();
            b.catchUp();
            if (!a.sameRepresentationAs(b) || !a.canRunWholeInstruction() || !b.canRunWholeInstruction()) {
                return false;
            }
        }
        return true;
    }
}
