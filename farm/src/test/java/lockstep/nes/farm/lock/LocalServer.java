package lockstep.nes.farm.lock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real server (redis-server, etcd) started by a test on free loopback ports in a temp dir, and
 * stopped (killed, dir deleted) on close. A missing binary fails the test under CI=true and skips
 * it otherwise ({@link TestTools#require}).
 */
public final class LocalServer implements AutoCloseable {
    final Path dir;
    final Path log;
    private final Process process;

    private LocalServer(Path dir, Process process) {
        this.dir = dir;
        this.log = dir.resolve("server.log");
        this.process = process;
    }

    /** Starts a server on a port. */
    @FunctionalInterface
    public interface Starter {
        LocalServer start(int port) throws IOException;
    }

    /**
     * One server for a whole test class, on a free port: {@code @RegisterExtension static final
     * LocalServer.PerClass server = new LocalServer.PerClass(LocalServer::etcd);} starts it before
     * the class's {@code @BeforeAll} methods and stops it after the class.
     */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {
        private final Starter starter;
        private LocalServer server;
        private int port;

        public PerClass(Starter starter) {
            this.starter = starter;
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            port = freePort();
            server = starter.start(port);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (server != null) {
                server.close();
            }
        }

        public int port() {
            return port;
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code command} in a fresh temp dir and waits up to 30 s for {@code ready}. */
    static LocalServer start(String name, List<String> command, BooleanSupplier ready) throws IOException {
        Path dir = Files.createTempDirectory("lockstep-" + name + "-");
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile());
        LocalServer s = new LocalServer(dir, pb.start());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            if (!s.process.isAlive()) {
                String out = s.tail();
                s.close();
                throw new IOException(name + " exited with " + s.process.exitValue() + ": " + out);
            }
            if (ready.getAsBoolean()) {
                return s;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        String out = s.tail();
        s.close();
        throw new IOException(name + " did not become ready within 30 s: " + out);
    }

    String tail() {
        try {
            String t = Files.readString(log);
            return t.length() > 2000 ? t.substring(t.length() - 2000) : t;
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** A redis-server on {@code port} that keeps nothing on disk (a restart starts empty). */
    public static LocalServer redis(int port) throws IOException {
        String bin = TestTools.require("redis-server", "apt-get install redis-server");
        return start("redis", List.of(bin, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no"),
                () -> redisPing(port));
    }

    /** A redis-server on {@code port} whose default user needs {@code password} (a restart starts empty). */
    public static LocalServer redisWithPassword(int port, String password) throws IOException {
        String bin = TestTools.require("redis-server", "apt-get install redis-server");
        return start("redis", List.of(bin, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--requirepass", password,
                "--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no"),
                () -> listening(port));
    }

    /**
     * A redis-server serving TLS only, on {@code port}, with {@code cert} and {@code key} (PEM);
     * clients need no certificate of their own.
     */
    public static LocalServer redisTls(int port, Path cert, Path key, Path ca) throws IOException {
        String bin = TestTools.require("redis-server", "apt-get install redis-server");
        return start("redis-tls", List.of(bin, "--port", "0", "--tls-port", Integer.toString(port), "--bind", "127.0.0.1",
                "--tls-cert-file", cert.toString(), "--tls-key-file", key.toString(), "--tls-ca-cert-file", ca.toString(),
                "--tls-auth-clients", "no", "--save", "", "--appendonly", "no", "--daemonize", "no"),
                () -> listening(port));
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean redisPing(int port) {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(1000);
            s.getOutputStream().write("PING\r\n".getBytes());
            byte[] b = new byte[7];
            int n = s.getInputStream().read(b);
            return n > 0 && new String(b, 0, n).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** A single-member etcd on {@code port} with a fresh data folder (a restart starts empty). */
    public static LocalServer etcd(int port) throws IOException {
        String bin = TestTools.require("etcd", "apt-get install etcd-server");
        int peer = freePort();
        String client = "http://127.0.0.1:" + port;
        String peerUrl = "http://127.0.0.1:" + peer;
        // short raft timings keep etcd's minimum lease TTL at 1 s (1.5 election timeouts)
        return start("etcd", List.of(bin, "--name", "farm-test", "--data-dir", "data",
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
                "--initial-cluster", "farm-test=" + peerUrl, "--heartbeat-interval", "25",
                "--election-timeout", "250"), () -> etcdHealthy(client));
    }

    private static boolean etcdHealthy(String client) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(client + "/health"))
                            .timeout(java.time.Duration.ofSeconds(1)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("true");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Kills the server at once (SIGKILL) and deletes its folder. */
    public void kill() {
        process.destroyForcibly();
        close();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }
}
