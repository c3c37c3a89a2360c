package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void delaysStayWithinTheExponentialCeilingAndTheCap() {
        Backoff b = new Backoff(10, 1000, 42);
        for (int n = 0; n < 20; n++) {
            long ceiling = Math.min(1000, 10L << n);
            assertEquals(ceiling, b.ceilingMillis());
            long d = b.nextDelayMillis();
            assertTrue(d >= 0 && d <= ceiling, "attempt " + n + " waited " + d);
        }
        b.reset();
        assertEquals(10, b.ceilingMillis());
    }

    @Test
    void sameSeedSameDelaysOtherSeedOtherDelays() {
        assertEquals(delays(7), delays(7));
        assertNotEquals(delays(7), delays(8));
    }

    @Test
    void jitterIsFullNotEqual() {
        // Full jitter spreads delays over the whole [0, ceiling] range.
        Backoff b = new Backoff(1000, 1000, 1);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 500; i++) {
            long d = b.nextDelayMillis();
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        assertTrue(min < 100 && max > 900, "min " + min + " max " + max);
    }

    private static List<Long> delays(long seed) {
        Backoff b = new Backoff(5, 10_000, seed);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add(b.nextDelayMillis());
        }
        return out;
    }
}
