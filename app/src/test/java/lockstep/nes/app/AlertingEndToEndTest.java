package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole alerting path with the real servers (Debian's prometheus and
 * prometheus-alertmanager) on loopback: {@code lockstep verify --rollback on-alert} with an
 * injected divergence raises its flag; Prometheus scrapes it, the LockstepStateDivergence rule
 * fires after its 10 s hold, Alertmanager calls the verifier's webhook, and the verifier rolls
 * back (seen in its metrics) and finishes.
 */
class AlertingEndToEndTest {
    @TempDir
    Path tmp;

    private final List<Process> servers = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * Stops the servers and waits for them to exit before the temporary directory goes:
     * Alertmanager writes its state into its storage directory as it shuts down, and a directory
     * still being written cannot be deleted.
     */
    @AfterEach
    void stopServers() throws InterruptedException {
        for (Process p : servers) {
            p.destroy();
        }
        for (Process p : servers) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void divergenceAlertFiresAndTheWebhookRollsTheSessionBack() throws Exception {
        String prometheus = tool("prometheus");
        String alertmanager = tool("prometheus-alertmanager");
        Path root = Path.of(System.getProperty("lockstep.root", "..")).toAbsolutePath().normalize();
        int verifyPort = freePort();
        int promPort = freePort();
        int amPort = freePort();

        Path token = tmp.resolve("token");
        Files.writeString(token, "e2e-" + Long.toHexString(System.nanoTime()));
        Files.copy(root.resolve("deploy/prometheus/lockstep-rules.yml"), tmp.resolve("lockstep-rules.yml"));
        Files.writeString(tmp.resolve("prometheus.yml"), Files.readString(root.resolve("deploy/prometheus/prometheus.yml"))
                .replace("scrape_interval: 2s", "scrape_interval: 1s")
                .replace("evaluation_interval: 2s", "evaluation_interval: 1s")
                .replace("127.0.0.1:9464", "127.0.0.1:" + verifyPort)
                .replace("127.0.0.1:9093", "127.0.0.1:" + amPort));
        Files.writeString(tmp.resolve("alertmanager.yml"), Files.readString(root.resolve("deploy/alertmanager/alertmanager.yml"))
                .replace("127.0.0.1:9464", "127.0.0.1:" + verifyPort)
                .replace("/etc/lockstep/alert-token", token.toString()));

        start(List.of(alertmanager, "--config.file=" + tmp.resolve("alertmanager.yml"),
                "--storage.path=" + tmp.resolve("am-data"), "--web.listen-address=127.0.0.1:" + amPort,
                "--cluster.listen-address="), "alertmanager");
        start(List.of(prometheus, "--config.file=" + tmp.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + tmp.resolve("prom-data"), "--web.listen-address=127.0.0.1:" + promPort),
                "prometheus");
        waitFor(() -> get("http://127.0.0.1:" + amPort + "/-/ready").contains("OK"), 60, "alertmanager ready");
        waitFor(() -> get("http://127.0.0.1:" + promPort + "/-/ready").contains("Ready"), 60, "prometheus ready");

        AtomicInteger exit = new AtomicInteger(-1);
        Path report = tmp.resolve("report.json");
        Thread verify = new Thread(() -> exit.set(Main.run("verify", "--frames", "20",
                "--inject", "ram-bitflip@60000:B:$0040:0", "--rollback", "on-alert", "--metrics-port",
                Integer.toString(verifyPort), "--alert-token-file", token.toString(), "--session", "e2e",
                "--dead-letter", tmp.resolve("dl").toString(), "--report", report.toString(),
                "--alert-wait", "120")));
        verify.start();

        String metrics = "http://127.0.0.1:" + verifyPort + "/metrics";
        waitFor(() -> get(metrics).contains("lockstep_state_divergence_flag{session=\"e2e\"} 1.0"), 60, "flag raised");
        // Prometheus sees the flag, holds it for 10 s, fires; Alertmanager forwards it to /alerts.
        waitFor(() -> get("http://127.0.0.1:" + promPort + "/api/v1/alerts").contains("\"state\":\"firing\""), 60,
                "alert firing in Prometheus");
        waitFor(() -> get("http://127.0.0.1:" + amPort + "/api/v2/alerts").contains("LockstepStateDivergence"), 60,
                "alert received by Alertmanager");
        waitFor(() -> {
            String m = get(metrics);
            return m.isEmpty() || m.contains("lockstep_rollbacks_total{session=\"e2e\"} 1.0");
        }, 90, "rollback seen in the metrics");
        verify.join(120_000);
        assertEquals(1, exit.get(), "verify reports the divergence with exit 1");
        String json = Files.readString(report);
        assertTrue(json.contains("\"rollbacks\" : 1"), json);
        assertTrue(json.contains("\"completed\" : true"), json);
    }

    private String get(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private void start(List<String> cmd, String name) throws IOException {
        servers.add(new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(tmp.resolve(name + ".log").toFile()).start());
    }

    private void waitFor(BooleanSupplier condition, int seconds, String what) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(250);
        }
        String logs = "";
        for (String n : List.of("prometheus", "alertmanager")) {
            Path log = tmp.resolve(n + ".log");
            if (Files.exists(log)) {
                List<String> lines = Files.readAllLines(log);
                logs += "\n--- " + n + " (last lines)\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
            }
        }
        fail("timed out waiting for: " + what + logs);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String tool(String name) {
        return TestTools.require(name, "apt-get install prometheus prometheus-alertmanager");
    }
}
