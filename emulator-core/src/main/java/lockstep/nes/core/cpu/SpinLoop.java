package lockstep.nes.core.cpu;

/**
 * Sees a spin loop come round unchanged: the CPU jumped back to the address it last jumped back
 * to, in exactly the state it had there, with the rest of the machine unchanged in between (the
 * caller counts every access that could change it: anything but a quiet read). From such a
 * state the loop repeats itself exactly until something outside the CPU moves (an interrupt
 * line, a PPU or APU event), so its iterations up to that point may be counted rather than run
 * (see Console#runFrame and docs/design/cpu.md).
 *
 * <p>Only the CPU is compared here; the caller compares what else a quiet read touches (the
 * open bus). A state needs one full iteration before it is trusted: the first visit to a head
 * may carry internal latches the loop overwrites, the second has them as every later one will.
 * Bookkeeping of the fast path, not state: forgotten at every frame start, chained stretch and
 * state visit.
 */
public final class SpinLoop {
    /** What the last iteration changed ({@link #change}): nothing. */
    public static final int SAME = 0;
    /** The last iteration took one from X and changed nothing else. */
    public static final int X_DOWN = 1;
    /** The last iteration took one from Y and changed nothing else. */
    public static final int Y_DOWN = 2;
    /** The last iteration changed something else, or none was seen whole. */
    public static final int OTHER = 3;

    /** Where the last backward jump went, or -1. */
    private int head = -1;
    /** The caller's count of non-quiet accesses at the last visit to {@link #head}. */
    private long disturbances;
    /** The CPU data bus at that visit. */
    private int openBus;
    /** The cycle of that visit. */
    private long cycle;
    /** The whole CPU at that visit, when {@link #copied}. */
    private final Cpu at = new Cpu();
    private boolean copied;
    private int change = OTHER;

    /** Forgets the loop being watched (a frame start, a state visit, a power cycle). */
    public void forget() {
        head = -1;
        copied = false;
        change = OTHER;
    }

    /**
     * After an instruction that left the CPU at an opcode fetch at or before its own address:
     * the loop's length in cycles when the CPU came round to the same head, with the same
     * {@code disturbances} and {@code openBus} as last time, in the same state or in the same
     * state but for X or Y one less ({@link #change}); else 0 (the visit is noted).
     */
    public long cameRound(Cpu c, long cycle, long disturbances, int openBus) {
        if (c.pc != head || disturbances != this.disturbances || openBus != this.openBus) {
            head = c.pc;
            this.disturbances = disturbances;
            this.openBus = openBus;
            this.cycle = cycle;
            copied = false;
            change = OTHER;
            return 0;
        }
        final long period = cycle - this.cycle;
        this.cycle = cycle;
        change = copied ? changeSince(c) : OTHER;
        copy(c);
        return change == OTHER ? 0 : period;
    }

    /** What the last iteration seen whole ({@link #cameRound}) changed: SAME, X_DOWN, Y_DOWN or OTHER. */
    public int change() {
        return change;
    }

    /** How {@code c} differs from the copy of the last visit. */
    private int changeSince(Cpu c) {
        final Cpu t = at;
        if (c.sameState(t)) {
            return SAME;
        }
        if (c.x == ((t.x - 1) & 0xFF)) {
            t.x = c.x;
            return c.sameState(t) ? X_DOWN : OTHER;
        }
        if (c.y == ((t.y - 1) & 0xFF)) {
            t.y = c.y;
            return c.sameState(t) ? Y_DOWN : OTHER;
        }
        return OTHER;
    }

    /** Keeps every field {@link Cpu#sameState} compares. */
    private void copy(Cpu c) {
        final Cpu t = at;
        t.a = c.a;
        t.x = c.x;
        t.y = c.y;
        t.s = c.s;
        t.p = c.p;
        t.pc = c.pc;
        t.addr = c.addr;
        t.write = c.write;
        t.dout = c.dout;
        t.opPc = c.opPc;
        t.opcode = c.opcode;
        t.step = c.step;
        t.ea = c.ea;
        t.tmp = c.tmp;
        t.hiPlusOne = c.hiPlusOne;
        t.nmiLine = c.nmiLine;
        t.nmiPending = c.nmiPending;
        t.interruptPolled = c.interruptPolled;
        t.branchPolled = c.branchPolled;
        t.jammed = c.jammed;
        copied = true;
    }
}
