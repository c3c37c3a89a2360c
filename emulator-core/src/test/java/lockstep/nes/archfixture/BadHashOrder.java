package lockstep.nes.archfixture;

import java.util.HashMap;
import java.util.Map;

/** Fixture: iterates a HashMap (must be caught). */
public final class BadHashOrder {
    public int sum() {
        Map<String, Integer> m = new HashMap<>();
        m.put("a", 1);
        int s = 0;
        for (int v : m.values()) {
            s = s * 31 + v;
        }
        return s;
    }
}
