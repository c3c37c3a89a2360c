package lockstep.nes.state;

/**
 * A count that goes up whenever a component tracked by it may have changed: one counter is
 * shared by the components of a machine whose state changes only on events (bus accesses, DMA,
 * catch-ups, loads), so the lockstep verifier's per-cycle check can see in one compare that
 * none of them has changed since it last found them equal, and compare them only then.
 *
 * <p>A component counts every path that can change its described state (its own mutators, its
 * catch-up, its {@code state()} with a reader). Counting too often only costs time; missing a
 * path would let a divergence of that component go unnoticed until the next full compare, which
 * is why {@code ChangeTrackingTest} drives every tracked component through each of its public
 * mutation paths between two checks. Not state: it only ever increases, and its value means
 * nothing beyond "unchanged since".
 */
public final class ChangeCounter {
    private final ChangeCounter parent;
    @NotState("change count of the lockstep check")
    private long count;

    /** A counter of its own. */
    public ChangeCounter() {
        this(null);
    }

    /**
     * A counter of one component's changes that counts each of them in {@code parent} too (the
     * counter shared by the machine's parts), so a cache of that component's term alone can key
     * on it while everything keyed on the shared counter sees the change as before.
     */
    public ChangeCounter(ChangeCounter parent) {
        this.parent = parent;
    }

    /** Something tracked may have changed. */
    public void bump() {
        count++;
        if (parent != null) {
            parent.count++;
        }
    }

    /** Bumps so far (compare two readings: equal means nothing tracked changed in between). */
    public long count() {
        return count;
    }
}
