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

/**
 * A real server (redis-server, etcd) started by a test on free loopback ports in a temp dir, and
 * stopped (killed, dir deleted) on close. A missing binary fails the test under CI=true and skips
 * it otherwise ({@link TestTools#require}).
 */
final class LocalServer implements AutoCloseable {
    final Path dir;
    final Path log;
    private final Process process;

    private LocalServer(Path dir, Process process) {
        this.dir = dir;
        this.log = dir.resolve("server.log");
        this.process = process;
    }

    static int freePort() throws IOException {
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
