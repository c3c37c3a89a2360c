package lockstep.nes.verifier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * HTTP on loopback: {@code GET /metrics} (Prometheus text format) and {@code POST /alerts}
 * (Alertmanager's webhook, when a webhook is configured).
 */
public final class MetricsServer implements AutoCloseable {
    /** The most of an oversized body read (and dropped) to answer 413 cleanly. */
    private static final long DRAIN_LIMIT = 64L << 20;

    private final HttpServer server;

    public MetricsServer(int port, PrometheusMeterRegistry registry, AlertWebhook webhook) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.createContext("/metrics", ex -> {
            if (!"GET".equals(ex.getRequestMethod())) {
                send(ex, 405, "GET only\n", "text/plain");
                return;
            }
            send(ex, 200, registry.scrape(), "text/plain; version=0.0.4; charset=utf-8");
        });
        server.createContext("/alerts", ex -> {
            if (webhook == null) {
                send(ex, 404, "no alert webhook configured\n", "text/plain");
                return;
            }
            if (!"POST".equals(ex.getRequestMethod())) {
                send(ex, 405, "POST only\n", "text/plain");
                return;
            }
            byte[] body = ex.getRequestBody().readNBytes(AlertWebhook.MAX_BODY + 1);
            if (body.length > AlertWebhook.MAX_BODY) {
                // Read the rest before answering: a reply while the client still sends, then a
                // close with unread bytes, would reach it as a reset connection, not as 413.
                drain(ex.getRequestBody());
                send(ex, 413, "payload over " + AlertWebhook.MAX_BODY + " bytes\n", "text/plain");
                return;
            }
            AlertWebhook.Response r = webhook.handle(ex.getRequestHeaders().getFirst("Authorization"), body);
            send(ex, r.status(), r.body() + "\n", "text/plain");
        });
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "metrics-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Reads and discards a request body (up to {@link #DRAIN_LIMIT}; past that the connection closes). */
    private static void drain(InputStream in) throws IOException {
        final byte[] buf = new byte[65536];
        long left = DRAIN_LIMIT;
        int n;
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
            left -= n;
        }
    }

    private static void send(HttpExchange ex, int status, String text, String type) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
