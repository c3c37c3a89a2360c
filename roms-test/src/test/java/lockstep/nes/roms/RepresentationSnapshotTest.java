package lockstep.nes.roms;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mappers;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The representation digest across a snapshot, over every manifest ROM that boots: a snapshot
 * taken mid-frame at a seeded cycle (after 5-24 seeded frames of the ROM's manifest input) and
 * loaded into a fresh engine gives the same representation digest
 * ({@link CycleDigest#representation}, nothing caught up) as the engine it was taken from at every
 * following cycle for 120 frames (-Dlockstep.representation.frames), both fed the manifest input;
 * then their snapshots are equal. So a loaded engine catches its lazily stepped parts up at the
 * same cycles as its source. ROMs run on one thread
 * per core (about a minute on the 2-core build machine).
 */
class RepresentationSnapshotTest {
    private static final int FRAMES = Integer.getInteger("lockstep.representation.frames", 120);

    @TestFactory
    List<DynamicTest> snapshotMidFrameContinuesWithTheSameRepresentationDigest() {
        Path dir = ManifestRomsTest.romsDir();
        List<RomEntry> entries = Manifest.builtIn().entries();
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
            Thread t = new Thread(r, "representation-snapshot");
            t.setDaemon(true);
            return t;
        });
        List<CompletableFuture<String>> runs = new ArrayList<>();
        for (RomEntry e : entries) {
            runs.add(CompletableFuture.supplyAsync(() -> run(dir, e), pool));
        }
        pool.shutdown();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            RomEntry e = entries.get(i);
            CompletableFuture<String> run = runs.get(i);
            tests.add(DynamicTest.dynamicTest(e.rom(), () -> {
                String failure = run.join();
                Assumptions.assumeFalse(UNSUPPORTED.equals(failure), e.rom() + ": mapper not supported yet");
                assertNull(failure, e.rom());
            }));
        }
        return tests;
    }

    private static final String UNSUPPORTED = "unsupported";

    /** Null when the two engines agreed at every cycle; else what differed. */
    private static String run(Path dir, RomEntry e) {
        try {
            Cartridge cart = Cartridge.load(dir.resolve(e.rom()));
            if (!Mappers.isSupported(cart.mapperNumber())) {
                return UNSUPPORTED;
            }
            Random r = new Random(e.rom().hashCode());
            Console a = Console.create(cart);
            ManifestInput input = new ManifestInput(e);
            int start = 5 + r.nextInt(20);
            for (int f = 0; f < start; f++) {
                input.apply(f, a);
                a.runFrame();
            }
            int mid = r.nextInt(29_780);
            for (int i = 0; i < mid; i++) {
                a.runCycle();
            }
            final long at = a.cycles();
            byte[] snap = new Snapshots(a).save();
            Console b = Console.create(cart);
            new Snapshots(b).load(snap);
            CycleDigest da = new CycleDigest(a);
            CycleDigest db = new CycleDigest(b);
            if (da.representation() != db.representation()) {
                return "representation digests differ right after loading at cycle " + at;
            }
            // The rest of the snapshot's frame, then FRAMES more, input applied at each frame's start.
            for (int f = start; f <= start + FRAMES; f++) {
                if (f > start) {
                    input.apply(f, a); // the same input (reset decisions taken from A)
                    input.apply(f, b);
                }
                long frame = a.frameAfterCycle();
                while (a.frameAfterCycle() == frame) {
                    a.runCycle();
                    b.runCycle();
                    if (da.representation() != db.representation()) {
                        return "representation digest differs at cycle " + a.cycles() + " (frame " + f
                                + ") after loading a snapshot taken at cycle " + at + " (frame " + start + ")";
                    }
                }
            }
            if (!Arrays.equals(new Snapshots(a).save(), new Snapshots(b).save())) {
                return "snapshots differ after " + FRAMES + " frames";
            }
            return null;
        } catch (Exception ex) {
            return ex.toString();
        }
    }
}
