package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertAll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Two peers in threads, a conditioned network between them, each playing its own made-up
 * input for 3,000 frames: both end in the state a fresh engine reaches on the merged input log,
 * however the network delayed, lost, reordered or doubled their datagrams.
 */
class GroundTruthTest {
    static final int FRAMES = 3000;

    static List<Conditioner.Setting> settings() {
        return List.of(
                new Conditioner.Setting("clean", 0, 0, 0, 0),
                new Conditioner.Setting("lan 5ms jitter 5, 5% loss", 5, 5, 0.05, 0.02),
                new Conditioner.Setting("25ms (50ms RTT) jitter 10, 10% loss, 10% dup", 25, 10, 0.10, 0.10),
                new Conditioner.Setting("40ms jitter 30 (reordering), 20% loss", 40, 30, 0.20, 0.05),
                new Conditioner.Setting("75ms (150ms RTT) jitter 5, 10% loss", 75, 5, 0.10, 0.05));
    }

    /** The settings run at once (each mostly waits on its network), each checked on its own. */
    @Test
    void bothPeersEndInTheReplayedStateUnderEverySetting() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(settings().size());
        try {
            List<Future<?>> runs = new ArrayList<>();
            long seed = 42;
            for (Conditioner.Setting s : settings()) {
                long sd = seed++;
                runs.add(pool.submit(() -> {
                    check(s, sd);
                    return null;
                }));
            }
            List<Executable> checks = new ArrayList<>();
            for (Future<?> f : runs) {
                checks.add(() -> {
                    try {
                        f.get(150, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        throw e.getCause();
                    }
                });
            }
            assertAll(checks);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void check(Conditioner.Setting setting, long seed) throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        NetplayPeer.Options ho = Sessions.options(FRAMES, Sessions.player(seed, true), List.of());
        NetplayPeer.Options jo = Sessions.options(FRAMES, Sessions.player(seed + 100, false), List.of());
        long t0 = System.nanoTime();
        Sessions.Pair p = Sessions.run(cart, setting, ho, jo, seed);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertArrayEquals(p.host().hostInputs(), p.joiner().hostInputs(), setting + ": the host's inputs as both logged them");
        assertArrayEquals(p.host().joinerInputs(), p.joiner().joinerInputs(), setting + ": the joiner's inputs as both logged them");
        String truth = Sessions.replay(cart, p.host().hostInputs(), p.host().joinerInputs(), FRAMES);
        System.out.printf("netplay %-45s %5d ms; host %d rollbacks (deepest %d, %d frames, %.3f ms each), "
                        + "joiner %d rollbacks (deepest %d, %d frames, %.3f ms each), rtt %.1f ms%n",
                setting, ms, p.host().rollbacks(), p.host().deepestRollback(), p.host().framesResimulated(),
                each(p.host()), p.joiner().rollbacks(), p.joiner().deepestRollback(), p.joiner().framesResimulated(),
                each(p.joiner()), p.host().rttMillis());
        assertEquals(FRAMES, p.host().frames(), setting.toString());
        assertEquals(FRAMES, p.joiner().frames(), setting.toString());
        assertEquals(truth, p.host().finalStateHash(), setting + ": host");
        assertEquals(truth, p.joiner().finalStateHash(), setting + ": joiner");
        assertEquals(0, p.host().desyncs().size(), setting.toString());
        assertEquals(0, p.joiner().desyncs().size(), setting.toString());
        if (setting.delayMs() > 0) {
            assertTrue(p.host().rollbacks() + p.joiner().rollbacks() > 0, setting + ": a delayed network makes rollbacks");
        }
    }

    private static double each(NetplayResult r) {
        return r.rollbacks() == 0 ? 0 : r.rollbackNanos() / 1e6 / r.rollbacks();
    }
}
