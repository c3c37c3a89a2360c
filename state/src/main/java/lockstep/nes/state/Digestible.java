package lockstep.nes.state;

/**
 * A component whose term of the per-cycle digest has a fast path: {@link #digestTerm()} must
 * equal {@link DigestTerm#of} of the component (its description) for every state; tests check
 * this for every component at random cycles of several ROMs and after random values are loaded
 * into every described field, so a field added to {@code state()} but not to the fast path fails.
 */
public interface Digestible extends Stateful {
    /** This component's digest term, without rehashing any memory (O(1) in memory sizes). */
    long digestTerm();
}
