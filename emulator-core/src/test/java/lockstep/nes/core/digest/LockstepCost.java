package lockstep.nes.core.digest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;

/**
 * Thread CPU time per CPU cycle (best of rounds, so other processes on a shared machine matter
 * less than in wall-clock benchmarks) of: one engine; one engine plus its digest every cycle;
 * and the verifier's same-thread lockstep pair (two engines, {@link CycleDigest#differsFrom}
 * every cycle). A probe, not a test. Run with {@code java -cp
 * ppu/target/classes:emulator-core/target/classes:emulator-core/target/test-classes
 * lockstep.nes.core.digest.LockstepCost ROM...}.
 */
public final class LockstepCost {
    private static long sink;

    public static void main(String[] args) throws Exception {
        for (String rom : args) {
            measure(Cartridge.load(Path.of(rom)));
        }
        if (sink == 42) {
            System.out.println(); // uses the results, so the JIT cannot drop the loops
        }
    }

    private static void measure(Cartridge cart) throws Exception {
        final int n = 500_000;
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        Console[] a = new Console[3];
        Console[] b = new Console[3];
        CycleDigest[] da = new CycleDigest[3];
        CycleDigest[] db = new CycleDigest[3];
        for (int i = 0; i < 3; i++) {
            a[i] = Console.create(cart);
            b[i] = Console.create(cart);
            for (int f = 0; f < 300; f++) {
                a[i].runFrame();
                b[i].runFrame();
            }
            da[i] = new CycleDigest(a[i]);
            db[i] = new CycleDigest(b[i]);
        }
        long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        for (int round = 0; round < 14; round++) {
            for (int k = 0; k < 3; k++) {
                Console c = a[k];
                Console d = b[k];
                long s = 0;
                long t0 = tm.getCurrentThreadCpuTime();
                if (k == 0) {
                    for (int i = 0; i < n; i++) {
                        c.runCycle();
                        s += c.cycles();
                    }
                } else if (k == 1) {
                    for (int i = 0; i < n; i++) {
                        c.runCycle();
                        s += da[k].digest();
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        s += c.frameAfterCycle();
                        c.runCycle();
                        d.runCycle();
                        if (da[k].differsFrom(db[k])) {
                            s++;
                        }
                    }
                }
                long t = tm.getCurrentThreadCpuTime() - t0;
                sink += s;
                if (round >= 3) {
                    best[k] = Math.min(best[k], t);
                }
            }
        }
        System.out.printf("%-24s engine %.1f ns/cycle | + digest %.1f ns (%.0f%% of the engine)"
                        + " | lockstep pair %.1f ns = %.2fx one engine%n",
                cart.name().replaceAll(".*/", ""), best[0] / (double) n, (best[1] - best[0]) / (double) n,
                100.0 * (best[1] - best[0]) / best[0], best[2] / (double) n, best[0] / (double) best[2]);
    }
}
