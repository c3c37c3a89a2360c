package lockstep.nes.roms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every ROM of the built-in manifest (one dynamic test each) and checks the manifest's
 * expectation: a "pass" ROM that does not pass fails the build; a "fail"/"known-fail" ROM that
 * now passes fails too, with a message asking to update the manifest, so the expectations stay
 * true. ROMs run in parallel on the available cores; each test waits for its own ROM.
 *
 * <p>The roms dir comes from -Dlockstep.roms (set by the parent pom) or LOCKSTEP_ROMS. When it
 * is missing the tests fail if CI=true and are skipped otherwise.
 */
class ManifestRomsTest {
    static Path romsDir() {
        Path dir = RomsDir.locate(null, System.getenv(), ManifestRomsTest.class);
        if (!Files.isDirectory(dir)) {
            String msg = "test ROM folder " + dir + " not found (set -Dlockstep.roms or LOCKSTEP_ROMS)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(msg);
            }
            Assumptions.abort(msg);
        }
        return dir;
    }

    @TestFactory
    List<DynamicTest> manifestRoms() {
        Path dir = romsDir();
        Manifest manifest = Manifest.builtIn();
        RomSuite suite = new RomSuite(new RomRunner(dir), RomSuite.defaultThreads());
        List<RomEntry> entries = manifest.entries();
        List<CompletableFuture<RomResult>> futures = suite.start(entries);
        List<DynamicTest> tests = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            RomEntry e = entries.get(i);
            CompletableFuture<RomResult> f = futures.get(i);
            boolean last = i == entries.size() - 1;
            tests.add(DynamicTest.dynamicTest(e.rom() + " (" + e.expect().id() + ")", () -> {
                try {
                    check(f.join());
                } finally {
                    if (last) {
                        suite.close();
                    }
                }
            }));
        }
        return tests;
    }

    private static void check(RomResult r) throws IOException {
        if (!r.passed()) {
            RomSuite.savePicture(r, Path.of("target", "rom-failures"));
        }
        String line = Report.line(r);
        if (r.entry().expect() == Expect.PASS) {
            assertEquals(Status.PASS, r.status(), line);
        } else if (r.passed()) {
            fail(r.rom() + " is expected to " + r.entry().expect().id() + " (" + r.entry().reason()
                    + ") but now passes: set \"expect\":\"pass\" in " + Manifest.RESOURCE);
        } else {
            System.out.println(line.length() > 200 ? line.substring(0, 197) + "..." : line);
        }
    }
}
