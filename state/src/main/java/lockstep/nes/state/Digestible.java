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

    /**
     * True when this and {@code other} are represented identically as they stand, lazily stepped
     * parts not caught up (a console's PPU runs behind until something looks at it): then their
     * states, and so their digests, are equal, as surely as equal digests mean equal states.
     * Implementations hold this only for two instances that catch their lazy parts up by the same
     * deterministic code from the same represented values and read-only data (two consoles of
     * one cartridge: the lag itself is represented by their clocks). False says nothing: two
     * machines in one state may be represented differently (one has caught its PPU up, the other
     * not yet), so compare the digests then ({@code CycleDigest.differsFrom} does). Checking this
     * needs no catch-up and compares raw fields and cached terms, which makes it much cheaper than
     * two digests; the default is false (no shortcut).
     */
    default boolean sameRepresentationAs(Digestible other) {
        return false;
    }
}
