package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * {@code promtool check metrics} on an exposition text, when promtool is on the PATH (the
 * Debian package prometheus, which .ci/run installs). Under CI (CI=true) a missing promtool is
 * a failure, so the check cannot silently stop running there.
 */
final class Promtool {
    private Promtool() {
    }

    static void checkMetrics(String exposition) throws Exception {
        String path = System.getenv().getOrDefault("PATH", "");
        File tool = null;
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir, "promtool");
            if (f.canExecute()) {
                tool = f;
                break;
            }
        }
        if (tool == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("promtool is not installed (CI=true): install the Debian package prometheus");
            }
            return;
        }
        Process p = new ProcessBuilder(tool.getPath(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("promtool check metrics did not finish");
        }
        assertEquals(0, p.exitValue(), "promtool check metrics:\n" + out);
    }
}
