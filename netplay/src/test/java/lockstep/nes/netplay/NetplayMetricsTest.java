package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.MetricsServer;
import org.junit.jupiter.api.Test;

/**
 * Each peer's metrics on the verifier's metrics server: RTT, input delay, frames ahead,
 * rollbacks with their depth histogram, desyncs; the figures agree with the session's result.
 */
class NetplayMetricsTest {
    @Test
    void servedOnTheMetricsServerAndAgreeWithTheResult() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        NetplayPeer.Options ho = Sessions.options(600, Sessions.player(11, false), List.of());
        NetplayPeer.Options jo = Sessions.options(600, Sessions.player(12, false),
                List.of(FaultSpec.parse("ram-bitflip@" + PlantedDesyncTest.cycleInFrame(cart, 300, 500) + ":B:$0015:0")));
        ho.metrics = new NetplayMetrics(registry, "host", ho.window);
        jo.metrics = new NetplayMetrics(registry, "join", ho.window);
        Sessions.Pair p = Sessions.run(cart, new Conditioner.Setting("10ms", 10, 4, 0.05, 0), ho, jo, 5);
        try (MetricsServer server = new MetricsServer(0, registry, null)) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            String text = r.body();
            for (String role : List.of("host", "join")) {
                NetplayResult res = role.equals("host") ? p.host() : p.joiner();
                String tag = "{session=\"" + role + "\"}";
                assertEquals(res.rollbacks(), value(text, "netplay_rollbacks_total" + tag), 0.0, role);
                assertEquals(res.rollbacks(), value(text, "netplay_rollback_depth_frames_count" + tag), 0.0, role);
                assertEquals(res.framesResimulated(), value(text, "netplay_rollback_depth_frames_sum" + tag), 0.0, role);
                assertEquals(res.rollbacks(), value(text, "netplay_rollback_depth_frames_bucket{session=\"" + role
                        + "\",le=\"8.0\"}"), 0.0, "every rollback is at most the window deep");
                assertEquals(1, value(text, "netplay_desyncs_total" + tag), 0.0, role);
                assertEquals(2, value(text, "netplay_input_delay_frames" + tag), 0.0, role);
                double rtt = value(text, "netplay_rtt_seconds" + tag);
                assertTrue(rtt >= 0.015 && rtt < 1, role + " rtt " + rtt);
                assertTrue(text.contains("netplay_frames_ahead" + tag), role);
                assertTrue(res.rollbacks() > 0, role);
            }
        }
    }

    private static double value(String text, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        assertTrue(m.find(), series + " in\n" + text);
        return Double.parseDouble(m.group(1));
    }
}
