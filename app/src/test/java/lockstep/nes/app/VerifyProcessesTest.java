package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lockstep verify --mode processes}: two engine-host JVMs of this build, compared every cycle. */
class VerifyProcessesTest {
    private static final Pattern STATE = Pattern.compile("cycles verified=(\\d+) state=([0-9a-f]{64})");

    @TempDir
    Path tmp;

    private Cli.Result verify(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("verify", "--dead-letter", tmp.resolve("dl").toString()));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    @Test
    void cleanRunExitsZeroWithTheSameStateAsTheSameThreadMode() {
        Cli.Result procs = verify("--mode", "processes", "--frames", "4", "--stall-ms", "10000");
        assertEquals(0, procs.exit(), procs.out() + procs.err());
        Matcher p = STATE.matcher(procs.out());
        assertTrue(p.find(), procs.out());
        assertTrue(procs.out().contains("frames=4"), procs.out());
        Cli.Result same = verify("--frames", "4");
        assertEquals(0, same.exit(), same.err());
        Matcher s = STATE.matcher(same.out());
        assertTrue(s.find(), same.out());
        assertEquals(s.group(2), p.group(2), "final state hash");
        assertEquals(s.group(1), p.group(1), "cycles verified");
    }

    @Test
    void injectedFaultIsReportedAtItsCycleAndFieldInTextAndJson() throws Exception {
        Path report = tmp.resolve("report.json");
        Cli.Result r = verify("--mode", "processes", "--frames", "3", "--checkpoint-every", "1", "--stall-ms", "10000",
                "--inject", "ram-bitflip@40000:B:$0123:1", "--report", report.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("DIVERGENCE at cycle 40000"), r.err());
        assertTrue(r.err().contains("console.ram[0x123]"), r.err());
        assertTrue(r.out().contains("1 rollback(s)"), r.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("processes", json.get("mode").asText());
        assertTrue(json.get("completed").asBoolean(), json.toString());
        JsonNode d = json.get("divergences").get(0);
        assertEquals(40000, d.get("cycle").asLong());
        assertEquals("processes", d.get("mode").asText());
        assertEquals("console.ram[0x123]", d.get("fields").get(0).get("field").asText());
        assertFalse(d.get("reproduced").asBoolean());
        // Both hosts' last 32 instructions up to the flip, from the re-run; nothing read $0123 yet.
        JsonNode trace = d.get("trace");
        assertEquals(32, trace.get("a").size(), trace.toString());
        assertEquals(trace.get("a"), trace.get("b"), trace.toString());
        assertEquals(-1, trace.get("firstDifference").asInt(), trace.toString());
        assertTrue(trace.get("a").get(31).asText().contains(" CYC:"), trace.toString());
        assertTrue(r.err().contains("last 32 instructions before the divergence (A; B where it differs: none does)"),
                r.err());
        // While the flag was up the report and both hosts' pictures went to the dead-letter directory.
        assertTrue(Files.readString(tmp.resolve("dl/dead-letter.jsonl")).contains("\"cycle\":40000"));
        try (var files = Files.list(tmp.resolve("dl"))) {
            assertEquals(2, files.filter(f -> f.toString().endsWith(".png")).count());
        }
    }

    @Test
    void aStallIsReportedAsAStallWithTheDriftAndExitsFive() {
        Cli.Result r = verify("--mode", "processes", "--frames", "4", "--checkpoint-every", "1", "--stall-ms", "1500",
                "--stream-chunk", "256",
                "--inject", "stall@70000:A:6000");
        assertEquals(5, r.exit(), r.out() + r.err());
        // With requests of 256 cycles the host behind, out of credit while host A sleeps, can be
        // the one the controller sees silent: either way a stall, never a divergence.
        assertTrue(r.err().contains("STALL: host "), r.err());
        assertFalse(r.err().contains("DIVERGENCE"), r.err());
        Matcher drift = Pattern.compile("drift (\\d+) cycles").matcher(r.err());
        assertTrue(drift.find(), r.err());
        long cycles = Long.parseLong(drift.group(1));
        assertTrue(cycles > 50 && cycles <= 3 * 256, "drift " + cycles + " is bounded by 3 chunks of 256");
        // A loaded machine may add stalls of its own: each reported as one, none a divergence.
        assertTrue(r.out().matches("(?s).*verify: no divergence, STALLED \\d+ time\\(s\\); frames=4 .*"), r.out());
        assertTrue(r.out().strip().endsWith("mode=processes"), r.out());
    }

    @Test
    void killedHostFailsTheRun() throws Exception {
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        // More frames than a host can stream before the kill lands, however fast the engine runs.
        Thread t = new Thread(() -> result.set(verify("--mode", "processes", "--frames", "100000", "--rollback", "off")));
        t.start();
        // Kill a host once it has surely been streaming for a while: 2 s of its own CPU time
        // (start-up, handshake and LOAD_ROM take far less), so the kill lands mid-run.
        ProcessHandle host = null;
        long until = System.nanoTime() + 90_000_000_000L;
        while (host == null && System.nanoTime() < until) {
            Thread.sleep(100);
            host = ProcessHandle.current().children()
                    // The hosts are this JVM's only child JVMs. (Their command line is not matched:
                    // Linux gives only the first 4 KiB of it, and the test class path is longer.)
                    .filter(h -> h.info().command().orElse("").endsWith("java"))
                    .filter(h -> h.info().totalCpuDuration().map(d -> d.toMillis() > 2000).orElse(false))
                    .findFirst().orElse(null);
        }
        assertNotNull(host, "no engine host streamed for 2 s of CPU");
        host.destroyForcibly();
        t.join(120_000);
        Cli.Result r = result.get();
        assertNotNull(r);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("crashed"), r.err());
        assertTrue(r.out().contains("DIVERGED"), r.out());
        assertFalse(r.out().contains("no divergence"), r.out());
    }

    @Test
    void injectOfAnUnknownFieldIsBadInput() {
        Cli.Result r = verify("--mode", "processes", "--frames", "2", "--inject", "reg@100:A:cpu.nope=1");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("cpu.nope"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
