package lockstep.nes.archfixture;

import java.util.Random;
import java.util.TreeMap;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/** Fixture: deterministic code (seeded random, ordered map, integer state) passes every rule. */
public final class GoodEngineCode implements Stateful {
    private int counter;

    public int work(long seed) {
        TreeMap<String, Integer> m = new TreeMap<>();
        m.put("x", new Random(seed).nextInt(10));
        return m.firstEntry().getValue() + counter;
    }

    @Override
    public void state(StateVisitor s) {
        counter = s.i32("counter", counter);
    }
}
