package lockstep.nes.core;

/**
 * Sees the bus access of every cycle that a whole instruction ({@link Console#runWholeInstruction})
 * runs, as {@code address | (write ? 1 << 24 : 0) | dataBus << 32}, {@code dataBus} being the
 * value on the CPU data bus after the access (the value read or written; a $4015 read, which
 * leaves the bus alone, gives what the APU's state and the open bus give). The same-thread
 * lockstep verifier folds them into its chain ({@code lockstep.nes.core.chain.ChainedRun}).
 * Attached with {@link Console#watchAccesses}.
 */
public interface AccessWatcher {
    /**
     * A quiet cycle's access (see {@link WholeInstructionBus}): it changed the clocks, the open
     * bus and, for a write, CPU RAM, nothing counted by {@link Console#changeCount}.
     */
    void quietAccess(long access);

    /** Any other cycle's access, after the whole cycle ran. */
    void access(long access);
}
