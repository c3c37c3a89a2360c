package lockstep.nes.state;

/** A component whose whole mutable state is described by one {@link #state} method. */
public interface Stateful {
    /** Visits every mutable field in a fixed order; see {@link StateVisitor}. */
    void state(StateVisitor s);
}
