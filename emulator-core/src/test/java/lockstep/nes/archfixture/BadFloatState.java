package lockstep.nes.archfixture;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/** Fixture: floating point in a stateful component (must be caught). */
public final class BadFloatState implements Stateful {
    private double level;

    @Override
    public void state(StateVisitor s) {
        level = s.i64("level", (long) level);
    }
}
