package lockstep.nes.core;

/**
 * The 2A03's two half-cycles of the APU clock, as the CPU cycles see them: a "get" cycle (the
 * first half, on which DMA may read) and a "put" cycle (the second half, on which DMA may write
 * and the OUT pins copy their latch). They alternate, one CPU cycle each.
 *
 * <p>Cycles are numbered as {@link Console#cycles()} counts them while the cycle runs (the count
 * is raised at the start of every CPU cycle). With this console's fixed power-on alignment the
 * odd-numbered cycles are get cycles: an OAM DMA, which always ends on a put, hands back to the
 * CPU on an odd cycle. Every unit that depends on the phase (DMA, the controller strobe) asks
 * here, so they cannot disagree.
 */
public final class ApuPhase {
    private ApuPhase() {
    }

    /** True when CPU cycle {@code cycle} (numbered while it runs) is a get cycle. */
    public static boolean isGet(long cycle) {
        return (cycle & 1) != 0;
    }
}
