package lockstep.nes.core;


import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the shared test ROMs: system property {@code lockstep.roms} (set by the build), else
 * env {@code LOCKSTEP_ROMS}, else {@code ../shared/roms}. A missing ROM fails the test under CI
 * (env CI=true) and skips it elsewhere.
 */
public final class TestRoms {
    private TestRoms() {
    }

    public static Path dir() {
        String p = System.getProperty("lockstep.roms");
        if (p == null || p.isBlank()) {
            p = System.getenv("LOCKSTEP_ROMS");
        }
        if (p == null || p.isBlank()) {
            p = "../shared/roms";
        }
        return Path.of(p);
    }

    /** The ROM at {@code relative} under the ROM folder's nes-test-roms/, or fail/skip. */
    public static Path require(String relative) {
        Path path = dir().resolve("nes-test-roms").resolve(relative);
        if (!Files.isRegularFile(path)) {
            String msg = "test ROM not found: " + path + " (set -Dlockstep.roms or LOCKSTEP_ROMS)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(msg);
            }
            assumeTrue(false, msg);
        }
        return path;
    }
}
