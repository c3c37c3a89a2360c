package lockstep.nes.archfixture;

/** Fixture: reads the wall clock (must be caught). */
public final class BadClock {
    public long now() {
        return System.nanoTime();
    }
}
