package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AlertWebhookTest {
    private static final String FIRING = """
        {"version":"4","status":"firing","receiver":"lockstep","groupLabels":{},
         "alerts":[{"status":"firing","labels":{"alertname":"LockstepStateDivergence",
           "session":"s1","severity":"critical"},"annotations":{},"startsAt":"2026-01-01T00:00:00Z"}]}
        """;

    private final AtomicInteger rollbacks = new AtomicInteger();

    private AlertWebhook webhook() {
        AlertWebhook w = new AlertWebhook("secret");
        w.register("s1", () -> {
            rollbacks.incrementAndGet();
            return new AlertWebhook.Outcome(true, "rolled back");
        });
        return w;
    }

    @Test
    void firingAlertForAKnownSessionRollsItBack() {
        AlertWebhook.Response r = webhook().handle("Bearer secret", FIRING.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.status());
        assertEquals(1, rollbacks.get());
    }

    @Test
    void refusalsChangeNothing() {
        AlertWebhook w = webhook();
        byte[] firing = FIRING.getBytes(StandardCharsets.UTF_8);
        assertEquals(401, w.handle(null, firing).status());
        assertEquals(401, w.handle("Basic abc", firing).status());
        assertEquals(403, w.handle("Bearer wrong", firing).status());
        assertEquals(400, w.handle("Bearer secret", "not json".getBytes()).status());
        assertEquals(400, w.handle("Bearer secret", "{\"x\":1}".getBytes()).status());
        assertEquals(404, w.handle("Bearer secret", FIRING.replace("\"s1\"", "\"nope\"").getBytes()).status());
        assertEquals(400, w.handle("Bearer secret",
                FIRING.replace("\"session\":\"s1\",", "").getBytes()).status());
        assertEquals(0, rollbacks.get());
        // A resolved notification is accepted but orders nothing.
        assertEquals(200, w.handle("Bearer secret", FIRING.replace("\"status\":\"firing\",\"labels\"",
                "\"status\":\"resolved\",\"labels\"").getBytes()).status());
        assertEquals(0, rollbacks.get());
    }

    @Test
    void servesMetricsAndAlertsOverHttp() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EpochFence fence = new EpochFence();
        SessionMetrics m = new SessionMetrics(registry, "s1", fence);
        m.setDivergence(true);
        m.setDrift(-7);
        try (MetricsServer server = new MetricsServer(0, registry, webhook())) {
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port();
            String text = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            org.junit.jupiter.api.Assertions.assertTrue(
                    text.contains("lockstep_state_divergence_flag{session=\"s1\"} 1.0"), text);
            org.junit.jupiter.api.Assertions.assertTrue(
                    text.contains("lockstep_drift_offset_cycles{session=\"s1\"} 7.0"), text);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/alerts"))
                    .header("Authorization", "Bearer secret")
                    .POST(HttpRequest.BodyPublishers.ofString(FIRING)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals(1, rollbacks.get());
            HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(base + "/alerts"))
                    .POST(HttpRequest.BodyPublishers.ofString(FIRING)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, bad.statusCode());
        }
    }

    @Test
    void anOversizedPayloadIsAnswered413NotAReset() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = new MetricsServer(0, registry, webhook())) {
            byte[] big = new byte[AlertWebhook.MAX_BODY + 4096];
            java.util.Arrays.fill(big, (byte) ' ');
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/alerts"))
                    .header("Authorization", "Bearer secret")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(big)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(413, r.statusCode(), r.body());
            assertEquals(0, rollbacks.get());
        }
    }

    /** Every metric family has a HELP line (promtool check metrics: "no help text"); promtool runs when present. */
    @Test
    void everyMetricHasHelpTextAndPassesPromtool() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SessionMetrics m = new SessionMetrics(registry, "s1", new EpochFence());
        m.checkpointSave().record(java.time.Duration.ofMillis(3));
        m.checkpointRestore().record(java.time.Duration.ofMillis(4));
        String text = registry.scrape();
        java.util.Set<String> help = new java.util.TreeSet<>();
        java.util.Set<String> typed = new java.util.TreeSet<>();
        for (String line : text.split("\n")) {
            String[] w = line.split(" ");
            if (line.startsWith("# HELP ") && w.length > 3 && !line.substring(line.indexOf(w[2]) + w[2].length()).isBlank()) {
                help.add(w[2]);
            } else if (line.startsWith("# TYPE ")) {
                typed.add(w[2]);
            }
        }
        org.junit.jupiter.api.Assertions.assertFalse(typed.isEmpty(), text);
        assertEquals(typed, help, "metrics without help text");
        Promtool.checkMetrics(text);
    }
}
