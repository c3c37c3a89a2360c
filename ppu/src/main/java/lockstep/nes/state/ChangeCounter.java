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
    private long count;

    /** Something tracked may have changed. */
    public void bump() {
        count++;
    }

    /** Bumps so far (compare two readings: equal means nothing tracked changed in between). */
    public long count() {
        return count;
    }
}
