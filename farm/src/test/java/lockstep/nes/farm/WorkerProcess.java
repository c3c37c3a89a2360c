package lockstep.nes.farm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A worker or coordinator in its own JVM (FarmMain), its output in a file, and signals for it. */
final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final Path out;

    private WorkerProcess(Process process, Path out) {
        this.process = process;
        this.out = out;
    }

    static WorkerProcess start(Path dir, String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-cp",
                System.getProperty("java.class.path"), FarmMain.class.getName()));
        cmd.addAll(List.of(args));
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new WorkerProcess(p, log);
    }

    long pid() {
        return process.pid();
    }

    String output() {
        try {
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Waits for a line matching {@code regex}; returns its match (group 1 if there is one). */
    String await(String regex, long timeoutMillis) throws InterruptedException {
        Pattern p = Pattern.compile(regex);
        long end = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (System.nanoTime() - end < 0) {
            Matcher m = p.matcher(output());
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            if (!process.isAlive() && !p.matcher(output()).find()) {
                throw new AssertionError("process ended (exit " + process.exitValue() + ") before printing /" + regex + "/:\n"
                        + output());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line matching /" + regex + "/ within " + timeoutMillis + " ms:\n" + output());
    }

    int waitFor(long timeoutMillis) throws InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            throw new AssertionError("process did not exit within " + timeoutMillis + " ms:\n" + output());
        }
        return process.exitValue();
    }

    boolean alive() {
        return process.isAlive();
    }

    void signal(String sig) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).start();
        k.waitFor(10, TimeUnit.SECONDS);
    }

    void stop() throws IOException, InterruptedException {
        signal("STOP");
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            signal("CONT");
            kill();
        }
    }
}
