package lockstep.nes.core;

import java.util.Arrays;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.state.CycleDigest;

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
    private final CycleDigest da;
    private final CycleDigest db;
    private final long[] ta = new long[Console.TRACE_LENGTH];
    private final long[] tb = new long[Console.TRACE_LENGTH];

    public PairStepper(Console a, Console b, CycleDigest da, CycleDigest db) {
        this.a = a;
        this.b = b;
        this.da = da;
        this.db = db;
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
        if (!a.canRunWholeInstruction() || !b.canRunWholeInstruction()) {
            return 0;
        }
        final int na = a.runTracedInstruction(ta);
        final int nb = b.runTracedInstruction(tb);
        if (na != nb || !Arrays.equals(ta, 0, na, tb, 0, nb) || da.differsFrom(db)) {
            return -1;
        }
        return na / Console.TRACE_STRIDE;
    }
}
