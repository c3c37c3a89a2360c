package lockstep.nes.verifier;

import java.util.Random;

/**
 * Exponential backoff with full jitter: attempt n waits a uniformly random time in
 * [0, min(cap, base * 2^n)]. The random source is seeded, so tests (and replays) see the same
 * delays.
 */
public final class Backoff {
    private final long baseMillis;
    private final long capMillis;
    private final Random random;
    private int attempt;

    public Backoff(long baseMillis, long capMillis, long seed) {
        if (baseMillis <= 0 || capMillis < baseMillis) {
            throw new IllegalArgumentException("need 0 < base <= cap");
        }
        this.baseMillis = baseMillis;
        this.capMillis = capMillis;
        this.random = new Random(seed);
    }

    /** The upper bound of the next delay (before jitter). */
    public long ceilingMillis() {
        long ceiling = baseMillis << Math.min(attempt, 30);
        return ceiling <= 0 || ceiling > capMillis ? capMillis : ceiling;
    }

    /** The next delay, in [0, ceiling]; each call is one more attempt. */
    public long nextDelayMillis() {
        long ceiling = ceilingMillis();
        attempt++;
        return (long) (random.nextDouble() * (ceiling + 1));
    }

    public int attempts() {
        return attempt;
    }

    /** After a success: the next failure starts from the base again. */
    public void reset() {
        attempt = 0;
    }
}
