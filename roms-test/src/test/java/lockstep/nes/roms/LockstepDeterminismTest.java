package lockstep.nes.roms;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mappers;
import lockstep.nes.ppu.Region;
import lockstep.nes.verifier.Lockstep;
import lockstep.nes.verifier.SessionMetrics;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every ROM test is a determinism test: each ROM of the manifest runs in same-thread lockstep
 * (two engines, digests compared after every cycle) with its manifest input, and must show no
 * divergence. Frames per ROM: the manifest's limit, capped by -Dlockstep.determinism.frames
 * (default 60: one second of play per ROM, which also takes the first checkpoint; the 194 ROMs
 * take about 2.5 CPU-minutes since the per-cycle digest became cheap: 223 s wall on the 2-core
 * build machine while it was shared, under 1.5 minutes idle). ROMs run on
 * {@code lockstep.determinism.threads} threads (default: one per core).
 */
class LockstepDeterminismTest {
    private static final int CAP = Integer.getInteger("lockstep.determinism.frames", 60);
    private static final int THREADS = Integer.getInteger("lockstep.determinism.threads",
            Runtime.getRuntime().availableProcessors());

    @TestFactory
    List<DynamicTest> everyManifestRomRunsInLockstepWithoutDivergence() {
        Path dir = ManifestRomsTest.romsDir();
        List<DynamicTest> tests = new ArrayList<>();
        List<RomEntry> entries = Manifest.builtIn().entries();
        List<CompletableFuture<Lockstep.Result>> runs = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, THREADS), r -> {
            Thread t = new Thread(r, "determinism");
            t.setDaemon(true);
            return t;
        });
        for (RomEntry e : entries) {
            runs.add(CompletableFuture.supplyAsync(() -> run(dir, e), pool));
        }
        pool.shutdown();
        for (int i = 0; i < entries.size(); i++) {
            RomEntry e = entries.get(i);
            CompletableFuture<Lockstep.Result> run = runs.get(i);
            tests.add(DynamicTest.dynamicTest(e.rom(), () -> {
                Lockstep.Result r = run.join();
                Assumptions.assumeTrue(r != null, e.rom() + ": mapper not supported yet");
                assertFalse(r.diverged(), () -> e.rom() + " diverged:\n" + r.divergences().get(0).toText());
                assertTrue(r.completed(), e.rom() + ": " + r.stopReason());
            }));
        }
        return tests;
    }

    private static Lockstep.Result run(Path dir, RomEntry e) {
        try {
            Path rom = dir.resolve(e.rom());
            Cartridge cart = Cartridge.load(rom);
            if (e.region() != null) {
                cart = cart.withRegion(Region.byId(e.region()));
            }
            if (!Mappers.isSupported(cart.mapperNumber())) {
                return null;
            }
            Lockstep.Options o = new Lockstep.Options();
            o.session = e.rom();
            o.romName = e.rom();
            o.frames = Math.min(CAP, e.frameLimit());
            o.input = new ManifestInput(e);
            o.rollback = Lockstep.Rollback.OFF;
            return new Lockstep(cart, o,
                    fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence)).run();
        } catch (Exception ex) {
            throw new IllegalStateException(e.rom() + ": " + ex.getMessage(), ex);
        }
    }
}
