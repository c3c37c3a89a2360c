package lockstep.nes.archfixture;

import java.util.Set;

/** Fixture: Set.of iterates in an order that changes between JVM runs (must be caught). */
public final class BadSetOf {
    public String first() {
        return Set.of("a", "b", "c").iterator().next();
    }
}
