package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.Test;

/**
 * Runs the real promtool and amtool (Debian's prometheus and prometheus-alertmanager) over
 * deploy/: the alert rule's unit tests, the Prometheus config and the Alertmanager config.
 */
class DeployConfigTest {
    static Path root() {
        return Path.of(System.getProperty("lockstep.root", "..")).toAbsolutePath().normalize();
    }

    static String tool(String name) {
        return TestTools.require(name, "apt-get install prometheus prometheus-alertmanager");
    }

    @Test
    void alertRuleUnitTestsPass() throws Exception {
        run(List.of(tool("promtool"), "test", "rules", "lockstep-rules.test.yml"), root().resolve("deploy/prometheus"));
    }

    @Test
    void prometheusConfigIsValid() throws Exception {
        run(List.of(tool("promtool"), "check", "config", "prometheus.yml"), root().resolve("deploy/prometheus"));
    }

    @Test
    void alertmanagerConfigIsValid() throws Exception {
        run(List.of(tool("amtool"), "check-config", "alertmanager.yml"), root().resolve("deploy/alertmanager"));
    }

    private static void run(List<String> cmd, Path dir) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", cmd) + " timed out");
        }
        assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + " failed:\n" + new String(out, StandardCharsets.UTF_8));
    }
}
