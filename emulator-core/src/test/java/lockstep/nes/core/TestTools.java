package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds an external program a test needs (promtool, prometheus, ...) on the PATH. A missing one
 * fails the test under CI (env CI=true, where .ci/run installs it) and skips it elsewhere.
 */
public final class TestTools {
    private TestTools() {
    }

    public static String require(String name, String installHint) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        String msg = name + " not found (" + installHint + ")";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(msg);
        }
        assumeTrue(false, msg);
        return null;
    }
}
