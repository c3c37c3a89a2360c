package lockstep.nes.core.chain;

import lockstep.nes.core.Console;

/**
 * The same-thread lockstep's step over a stretch of cycles: two engines of one cartridge each
 * run the stretch alone, at the speed of one engine ({@link ChainedRun}), folding the state
 * after every cycle into a running hash (their chains), and are compared at its end: cycle
 * counts, chains and representations. Equal chains mean that every cycle's folded values were
 * equal (hash collisions aside); with equal representations at the end, the engines were equal
 * after every cycle of the stretch (docs/design/chain.md says why). Used where no fault is due
 * inside the stretch; the verifier steps both engines one cycle at a time around faults, and
 * locates a difference a stretch finds by re-running its frame cycle by cycle.
 */
public final class PairStepper {
    private final Console a;
    private final Console b;
    private final RepresentationTerm termsA;
    private final RepresentationTerm termsB;
    private final ChainedRun chainA;
    private final ChainedRun chainB;

    public PairStepper(Console a, Console b) {
        this.a = a;
        this.b = b;
        this.termsA = new RepresentationTerm(a);
        this.termsB = new RepresentationTerm(b);
        this.chainA = new ChainedRun(termsA);
        this.chainB = new ChainedRun(termsB);
    }

    /**
     * Runs both engines from here until the frame ends or their cycle count reaches
     * {@code limit} (both the same way: {@link ChainedRun#run}) and returns the cycles run
     * when they stayed equal after every one of them, or -1 when they did not: the first
     * differing cycle is then between here and the later engine's cycle (find it by re-running
     * them cycle by cycle from an earlier equal state). Returns 0, running nothing, when the
     * engines differ here (their representations differ once both are caught up: the caller
     * steps them one cycle at a time and compares their digests) or when {@code limit} is not
     * ahead of them.
     *
     * <p>Both engines are first caught up ({@link Console#catchUp}, which changes no state):
     * the chains hold represented values (the lazily stepped PPU's clock), and two engines in
     * the same state represent it alike only when nothing caught up one of them alone.
     */
    public long stepStretch(long limit) {
        final long start = a.cycles();
        if (start >= limit || b.cycles() != start) {
            return 0;
        }
        a.catchUp();
        b.catchUp();
        if (!termsA.sameAs(termsB)) {
            return 0;
        }
        final long endA = chainA.run(limit);
        final long endB = chainB.run(limit);
        if (a.cycles() != b.cycles() || endA != endB || !termsA.sameAs(termsB)) {
            return -1;
        }
        return a.cycles() - start;
    }
}
