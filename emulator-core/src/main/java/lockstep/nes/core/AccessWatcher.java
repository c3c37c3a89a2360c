package lockstep.nes.core;

import lockstep.nes.state.NotState;

/**
 * Sees the bus access of every cycle that a whole instruction ({@link Console#runWholeInstruction})
 * runs, as {@code address | (write ? 1 << 24 : 0) | dataBus << 32}, {@code dataBus} being the
 * value on the CPU data bus after the access (the value read or written; a $4015 read, which
 * leaves the bus alone, gives what the APU's state and the open bus give). The same-thread
 * lockstep verifier folds them into its chain ({@code lockstep.nes.core.chain.ChainedRun}).
 * Attached with {@link Console#watchAccesses}.
 *
 * <p>A quiet cycle's access is folded here, by a final method, into {@link #chain}: the bus's
 * quiet paths then call no overridable method, so the JIT inlines the fold with no check of
 * the watcher's class (docs/design/chain.md, "Performance notes").
 */
public abstract class AccessWatcher {
    /** The multiplier of the running hash per access (odd). */
    public static final long ACCESS_K = 0x9E3779B97F4A7C15L;

    /** The running hash that every access is folded into (the chain of a stretch). */
    @NotState("the running stretch's hash")
    protected long chain;

    /**
     * A quiet cycle's access (see {@link WholeInstructionBus}): it changed the clocks, the open
     * bus and, for a write, CPU RAM, nothing counted by {@link Console#changeCount}.
     */
    public final void quietAccess(long access) {
        chain = chain * ACCESS_K + access;
    }

    /** Any other cycle's access, after the whole cycle ran. */
    public abstract void access(long access);
}
