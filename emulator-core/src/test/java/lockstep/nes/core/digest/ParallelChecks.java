package lockstep.nes.core.digest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Stream;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.DynamicTest;

/** Slow per-ROM checks of the digest tests, run at once on one thread per core. */
final class ParallelChecks {
    private ParallelChecks() {
    }

    /**
     * A check per ROM, all started at once on daemon threads named {@code threadName}; each
     * dynamic test (named after its ROM) joins its own and rethrows what it threw.
     */
    static Stream<DynamicTest> perRom(String threadName, List<Cartridge> roms, Function<Cartridge, Runnable> check) {
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        List<CompletableFuture<Throwable>> runs = new ArrayList<>();
        for (Cartridge cart : roms) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    check.apply(cart).run();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }, pool));
        }
        pool.shutdown();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < roms.size(); i++) {
            CompletableFuture<Throwable> run = runs.get(i);
            tests.add(DynamicTest.dynamicTest(roms.get(i).name(), () -> {
                Throwable t = run.join();
                if (t instanceof Error e) {
                    throw e;
                } else if (t != null) {
                    throw new AssertionError(t);
                }
            }));
        }
        return tests.stream();
    }
}
