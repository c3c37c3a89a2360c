package lockstep.nes.core.state;

import lockstep.nes.core.Console;
import org.junit.jupiter.api.Test;

/** Measures the per-cycle digest against the engine's own time per cycle (printed). */
class DigestCostTest {
    @Test
    void measure() {
        Console c = TestRoms.console(TestRoms.tiny());
        CycleDigest d = new CycleDigest(c);
        long sink = 0;
        int n = 3_000_000;
        long engine = Long.MAX_VALUE;
        long both = Long.MAX_VALUE;
        for (int round = 0; round < 4; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                c.runCycle();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                c.runCycle();
                sink += d.digest();
            }
            long t2 = System.nanoTime();
            engine = Math.min(engine, t1 - t0);
            both = Math.min(both, t2 - t1);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += d.digest();
        }
        System.out.printf("digest alone %.1f ns, %d entries%n", (System.nanoTime() - t0) / (double) n,
                Describer.describe(c).size());
        double e = engine / (double) n;
        double b = both / (double) n;
        System.out.printf("engine %.1f ns/cycle, engine+digest %.1f ns/cycle, digest %.1f ns (%.0f%%) [%d]%n",
                e, b, b - e, 100 * (b - e) / e, sink & 1);
    }
}
