package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM and SIGINT during a long run, in a real process: the run stops at a frame (or ROM)
 * boundary, prints its summary, writes the report so far marked interrupted, and exits 143 /
 * 130. The process runs in an empty working directory, which must stay empty.
 */
class SignalTest {
    @TempDir
    Path tmp;

    /**
     * Starts {@code lockstep ARGS} in the empty folder {@code tmp/work}, stdout and stderr to
     * files; returns once {@code ready} appeared on stderr.
     */
    private Running start(String ready, String... args) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("stdout.txt");
        Path err = tmp.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("XDG_DATA_HOME", tmp.resolve("data").toString());
        Process p = pb.start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.readString(err).contains(ready)) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, "started: " + Files.readString(err));
            Thread.sleep(50);
        }
        return new Running(p, out, err, work);
    }

    private record Running(Process process, Path outFile, Path errFile, Path work) {
        int waitFor() throws Exception {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                // Where it is stuck, for the failure message: its threads, then its output.
                String threads = threadDump(process.pid());
                process.destroyForcibly();
                fail("exits after the signal; its threads:\n" + threads + "\nstdout:\n" + out() + "\nstderr:\n" + err());
            }
            return process.exitValue();
        }

        private static String threadDump(long pid) {
            try {
                Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
                String dump = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                jcmd.waitFor(30, TimeUnit.SECONDS);
                return dump;
            } catch (IOException | InterruptedException e) {
                return "(no thread dump: " + e.getMessage() + ")";
            }
        }

        String out() throws IOException {
            return Files.readString(outFile);
        }

        String err() throws IOException {
            return Files.readString(errFile);
        }
    }

    private static void assertEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.toList(), "nothing lands in the working directory");
        }
    }

    @Test
    void headlessOnSigtermWritesTheJsonSoFarAndExits143() throws Exception {
        Path json = tmp.resolve("h.json");
        Running r = start("headless: frame", "headless", "--frames", "10000000", "--json", json.toString());
        r.process().destroy(); // SIGTERM
        assertEquals(143, r.waitFor(), r.err());
        String out = r.out();
        assertTrue(out.matches("(?s)frames=\\d+ cycles=\\d+ fps=[0-9.]+ state=[0-9a-f]{64} rom=.+ interrupted\\s*"),
                out + r.err());
        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        assertTrue(n.path("frames").asInt() > 0 && n.path("frames").asInt() < 10000000, n.toString());
        assertEmpty(r.work());
    }

    @Test
    void verifyOnSigintWritesTheReportSoFarAndExits130() throws Exception {
        Path report = tmp.resolve("v.json");
        Running r = start("verify: metrics on", "verify", "--frames", "10000000", "--metrics-port", "0",
                "--report", report.toString());
        Thread.sleep(1500);
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(r.process().pid())).start();
        assertEquals(0, kill.waitFor());
        assertEquals(130, r.waitFor(), r.err());
        assertTrue(r.out().contains("verify: INTERRUPTED after "), r.out());
        JsonNode n = new ObjectMapper().readTree(report.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        assertTrue(n.path("frames").asInt() > 0, n.toString());
        assertEmpty(r.work());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"threads", "processes"})
    void verifyInOtherModesOnSigtermWritesTheReportSoFarAndExits143(String mode) throws Exception {
        Path report = tmp.resolve("v-" + mode + ".json");
        Running r = start("verify: metrics on", "verify", "--mode", mode, "--frames", "10000000", "--metrics-port",
                "0", "--report", report.toString());
        Thread.sleep(4000);
        r.process().destroy(); // SIGTERM
        assertEquals(143, r.waitFor(), r.err());
        assertTrue(r.out().contains("verify: INTERRUPTED after "), r.out() + r.err());
        JsonNode n = new ObjectMapper().readTree(report.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        assertEquals(mode, n.path("mode").asText(), n.toString());
        assertTrue(n.path("cyclesVerified").asLong() > 0, n.toString());
        assertTrue(n.path("finalStateHash").asText().matches("[0-9a-f]{64}"), n.toString());
        assertEquals(0, n.path("divergences").size(), n.toString());
        assertEmpty(r.work());
    }

    @Test
    void testRomsOnSigtermWritesTheResultsSoFarAndExits143() throws Exception {
        Path json = tmp.resolve("t.json");
        String roms = lockstep.nes.roms.RomsDir.locate(null, System.getenv(), SignalTest.class).toString();
        org.junit.jupiter.api.Assumptions.assumeTrue(new File(roms).isDirectory(), "the test ROMs are there");
        Running r = start("", "test-roms", "--roms", roms, "--threads", "1", "--json", json.toString());
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (r.out().isEmpty()) { // the first result line: the suite is under way
            assertTrue(r.process().isAlive() && System.nanoTime() < deadline, r.err());
            Thread.sleep(50);
        }
        r.process().destroy();
        assertEquals(143, r.waitFor(), r.out() + r.err());
        assertTrue(r.out().contains("(interrupted after "), r.out());
        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        assertTrue(n.path("results").size() >= 1, n.toString());
        assertEmpty(r.work());
    }

    /** Waits until {@code text} appears on the run's stderr (a progress line: robust on a slow machine). */
    private static void awaitErr(Running r, String text) throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!r.err().contains(text)) {
            assertTrue(r.process().isAlive() && System.nanoTime() < deadline, "waiting for '" + text + "': " + r.out()
                    + r.err());
            Thread.sleep(50);
        }
    }

    @Test
    void verifyStoppedAfterADivergenceAndARollbackKeepsWhatItFound() throws Exception {
        Path report = tmp.resolve("d.json");
        Running r = start("verify: frame", "verify", "--frames", "10000000", "--inject", "ram-bitflip@100000:B:0x10:0",
                "--report", report.toString());
        awaitErr(r, "rollback: both engines restored");
        r.process().destroy(); // SIGTERM
        assertEquals(143, r.waitFor(), r.err());
        String out = r.out();
        assertTrue(out.contains("verify: INTERRUPTED after ") && out.contains("DIVERGED 1 time(s), first at cycle ")
                && out.contains("1 rollback(s)") && !out.contains("no divergence before"), out + r.err());
        JsonNode n = new ObjectMapper().readTree(report.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        assertEquals(1, n.path("divergences").size(), n.toString());
        assertEquals(1, n.path("rollbacks").asInt(), n.toString());
        assertTrue(n.path("cyclesVerified").asLong() > 0, n.toString());
        assertTrue(n.path("finalStateHash").asText().matches("[0-9a-f]{64}"), n.toString());
        assertTrue(out.contains("state=" + n.path("finalStateHash").asText()), out);
        assertEmpty(r.work());
    }

    @Test
    void headlessStoppedWithAScreenshotWritesItsSummaryTheJsonAndThePicture() throws Exception {
        Path json = tmp.resolve("h.json");
        Path png = tmp.resolve("h.png");
        Running r = start("headless: frame", "headless", "--frames", "10000000", "--screenshot", png.toString(),
                "--json", json.toString());
        r.process().destroy(); // SIGTERM
        assertEquals(143, r.waitFor(), r.err());
        assertFalse(r.err().contains("error"), r.err());
        assertTrue(r.out().matches("(?s)frames=\\d+ cycles=\\d+ fps=[0-9.]+ state=[0-9a-f]{64} rom=.+ interrupted\\s*"),
                r.out() + r.err());
        assertTrue(new ObjectMapper().readTree(json.toFile()).path("interrupted").asBoolean());
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        assertEquals(256, img.getWidth());
        assertEmpty(r.work());
    }

    @Test
    void canaryStoppedSaysInterruptedAndHowFarItGot() throws Exception {
        Path jar = HostJar.make(tmp);
        Path html = tmp.resolve("c.html");
        Path json = tmp.resolve("c.json");
        Running r = start(" frame ", "canary", "--baseline", jar.toString(), "--candidate", jar.toString(),
                "--frames", "10000000", "--report", json.toString(), "--html", html.toString());
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!r.err().matches("(?s).* frame [1-9][0-9]*/.*")) { // a progress line past frame 0
            assertTrue(r.process().isAlive() && System.nanoTime() < deadline, r.out() + r.err());
            Thread.sleep(50);
        }
        r.process().destroy(); // SIGTERM
        assertEquals(143, r.waitFor(), r.err());
        assertTrue(r.out().contains("canary: INTERRUPTED: "), r.out());
        String page = Files.readString(html);
        assertTrue(page.contains("INTERRUPTED") && !page.contains("FAIL"), page);
        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertTrue(n.path("interrupted").asBoolean(), n.toString());
        long ran = n.path("interruptedDuring").path("framesRun").asLong();
        assertTrue(ran > 0, n.toString());
        assertTrue(page.contains("ran " + ran + " of 10000000 frames"), page);
        assertEmpty(r.work());
    }
}
