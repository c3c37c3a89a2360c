package lockstep.nes.core.cpu;

/**
 * The console's side of {@link Cpu#runInstruction} and {@link Cpu#runInterrupt}: each call is
 * one whole CPU cycle with the bus access the per-cycle path would make, everything the console
 * does around it included (clocks, PPU catch-up, APU, board), except the interrupt poll at its
 * end, which the CPU makes itself from {@link #nmiLow()} and {@link #irqLow()}.
 */
public interface Bus {
    int cycleRead(int address);

    void cycleWrite(int address, int value);

    /**
     * The read cycle when it is quiet (the console's choice: it does no more than the read
     * and the clocks, and /NMI and /IRQ stay as the last poll saw them, so the CPU polls
     * without asking), returning the value read;
     * otherwise -1 and nothing done (the caller then makes it with {@link #cycleRead}).
     * Kept small (why: docs/design/cpu.md).
     */
    int quietRead(int address);

    /** {@link #cycleWrite} when the cycle is quiet (see {@link #quietRead}), returning 0; otherwise -1 and nothing done. */
    int quietWrite(int address, int value);

    /** /NMI as polled at the end of a cycle. */
    boolean nmiLow();

    /** /IRQ as polled at the end of a cycle. */
    boolean irqLow();
}
