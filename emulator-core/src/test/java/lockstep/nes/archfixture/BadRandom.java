package lockstep.nes.archfixture;

import java.util.Random;

/** Fixture: an unseeded Random (must be caught). */
public final class BadRandom {
    public int roll() {
        return new Random().nextInt(6);
    }
}
