package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import lockstep.nes.core.IoReason;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.SnapshotEdit;
import lockstep.nes.verifier.canary.Canary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values that look like input but cannot mean anything are refused with one line and exit code 2
 * before any work starts: a run of no frames, a snapshot whose clock contradicts itself, ranges
 * with no sensible reading, empty files that would silently turn a check off, and a ROM problem
 * reported before the lack of a window.
 */
class RefusedValuesTest {
    @TempDir
    static Path tmp;

    /** The header's cycle field (SnapshotFormat): magic 8, version 4, ROM SHA-256 32. */
    private static final int HEADER_CYCLE = 44;

    private static byte[] snapshot;

    @BeforeAll
    static void saveAState() throws IOException {
        Path file = tmp.resolve("good.lss");
        Cli.Result r = Cli.run("headless", "--frames", "3", "--save-state", file.toString());
        assertEquals(0, r.exit(), r.err());
        snapshot = Files.readAllBytes(file);
    }

    /** Exit 2 and exactly the one line "error: {@code line}". */
    private static void assertRefused(Cli.Result r, String line) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(List.of("error: " + line), r.err().strip().lines().toList());
    }

    /** Exit 2, one line, and no Java type, stack frame or exception name in it. */
    private static String assertOneLine(Cli.Result r) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: "), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("java.") || r.err().contains("lockstep.nes.")
                || r.err().contains("`") || r.err().contains("Source:") || r.err().contains("byte[]"), r.err());
        return r.err().strip();
    }

    @Test
    void headlessRefusesARunOfNoFrames() {
        assertRefused(Cli.run("headless", "--frames", "0"), "--frames must be at least 1, not 0");
        assertRefused(Cli.run("headless", "--frames", "-5"), "--frames must be at least 1, not -5");
    }

    private static Cli.Result load(byte[] state) throws IOException {
        Path file = Files.write(tmp.resolve("planted.lss"), state);
        return Cli.run("headless", "--load-state", file.toString(), "--frames", "1");
    }

    private static byte[] withHeaderCycle(byte[] state, long cycle) {
        byte[] out = state.clone();
        for (int i = 0; i < 8; i++) {
            out[HEADER_CYCLE + i] = (byte) (cycle >>> (56 - 8 * i));
        }
        return SnapshotEdit.sign(out);
    }

    private static long headerCycle(byte[] state) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (state[HEADER_CYCLE + i] & 0xFF);
        }
        return v;
    }

    @Test
    void aSnapshotWhoseClockContradictsItselfIsRefused() throws IOException {
        String file = tmp.resolve("planted.lss").toString();
        long cycle = headerCycle(snapshot);
        assertTrue(cycle > 50_000, "three frames ran: " + cycle);
        // The body's cycle set to the power-on value, the header left as saved.
        assertRefused(load(SnapshotEdit.plant(snapshot, "console.cycle", -1)),
                file + ": the header's cycle " + cycle + " disagrees with console.cycle = -1");
        // The header alone changed.
        assertRefused(load(withHeaderCycle(snapshot, cycle + 1)),
                file + ": the header's cycle " + (cycle + 1) + " disagrees with console.cycle = " + cycle);
        // Both say power-on, but the master clock has run three frames.
        byte[] powerOn = withHeaderCycle(SnapshotEdit.plant(snapshot, "console.cycle", -1), -1);
        Cli.Result r = load(powerOn);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().strip().startsWith("error: " + file + ": console.cycle = -1 disagrees with console.masterClock = "),
                r.err());
        // The snapshot as saved still loads.
        Cli.Result ok = load(snapshot);
        assertEquals(0, ok.exit(), ok.err());
    }

    @Test
    void verifyRefusesACheckpointSpanThatIsNotOne() {
        assertRefused(Cli.run("verify", "--frames", "1", "--checkpoint-minutes", "-1"),
                "--checkpoint-minutes must be 0.01..1440, not -1");
        assertRefused(Cli.run("verify", "--frames", "1", "--checkpoint-minutes", "NaN"),
                "--checkpoint-minutes must be 0.01..1440, not NaN");
    }

    @Test
    void benchRefusesATimeItCannotMeasure() {
        assertRefused(Cli.run("bench", "--min-seconds", "-3"), "--min-seconds must be 0..86400, not -3");
        assertRefused(Cli.run("bench", "--min-seconds", "1e308"), "--min-seconds must be 0..86400, not 1e308");
    }

    @Test
    void anEmptyAlertTokenFileIsRefusedNotTakenAsNoToken() throws IOException {
        Path empty = Files.writeString(tmp.resolve("token"), " \n");
        assertRefused(Cli.run("verify", "--frames", "1", "--alert-token-file", empty.toString()),
                empty + ": empty (--alert-token-file must hold the webhook's bearer token)");
    }

    @Test
    void nestestRefusesAnEmptyGoldenLog() throws IOException {
        Path rom = Files.write(tmp.resolve("n.nes"), DemoRom.bytes());
        Path log = Files.writeString(tmp.resolve("empty.log"), "\n\n");
        assertRefused(Cli.run("nestest", rom.toString(), log.toString()),
                log + ": empty (the golden log has no lines to compare)");
    }

    @Test
    void testRomsRefusesEmptyAndMalformedManifestsInItsOwnWords() throws IOException {
        Path roms = Files.createDirectories(tmp.resolve("roms"));
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("", "empty");
        cases.put("{\"roms\": []}", "lists no ROMs (\"roms\" is empty)");
        cases.put("{\"comment\": [\"x\"]}", "missing field \"roms\"");
        cases.put("{\"roms\": null}", "lists no ROMs (\"roms\" is missing)");
        cases.put("[]", "the file should be an object {...}");
        cases.put("{\"roms\": 5}", "roms should be a list [...]");
        cases.put("{\"roms\": [{\"rom\": \"a.nes\", \"family\": \"f8\", \"expect\": \"pass\", \"frames\": \"many\"}]}",
                "roms[0].frames should be a whole number");
        cases.put("{\"roms\": [{\"rom\": \"a.nes\", \"family\": \"nope\", \"expect\": \"pass\"}]}",
                "roms[0].family: unknown family \"nope\" (6000, f8, screen, framehash, nestest)");
        cases.put("{\"roms\": [{\"rom\": \"a.nes\", \"family\": \"f8\", \"expect\": \"pass\", \"colour\": 1}]}",
                "unknown field \"colour\" in roms[0] (known fields: ");
        cases.put("{\"roms\": [{\"family\": \"f8\", \"expect\": \"pass\"}]}", "missing field \"rom\" in roms[0]");
        cases.put("{\"roms\": [", "not valid JSON");
        int n = 0;
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path manifest = Files.writeString(tmp.resolve("manifest-" + n++ + ".json"), c.getKey());
            String line = assertOneLine(Cli.run("test-roms", "--roms", roms.toString(), "--manifest", manifest.toString()));
            assertTrue(line.startsWith("error: " + manifest + ": " + c.getValue()), c.getKey() + " -> " + line);
        }
    }

    @Test
    void aCycleTooLongForSixtyFourBitsIsOutOfRangeNotNotANumber() {
        String line = assertOneLine(Cli.run("verify", "--frames", "1", "--inject", "ram-bitflip@99999999999999999999:A"));
        assertEquals("error: bad --inject 'ram-bitflip@99999999999999999999:A': CYCLE '99999999999999999999' is out of "
                + "range (more than 64 bits)", line);
        String hex = assertOneLine(Cli.run("verify", "--frames", "1", "--inject", "reg@100:A:cpu.a=$1FFFFFFFFFFFFFFFF"));
        assertTrue(hex.endsWith("VALUE '$1FFFFFFFFFFFFFFFF' is out of range (more than 64 bits)"), hex);
        String typo = assertOneLine(Cli.run("verify", "--frames", "1", "--inject", "ram-bitflip@12x:A"));
        assertTrue(typo.endsWith("CYCLE '12x' is not a number"), typo);
    }

    @Test
    void aFileThatCannotBeReadSaysWhy() {
        assertEquals("permission denied", IoReason.of(new AccessDeniedException("/x/game.nes")));
        assertEquals("not found", IoReason.of(new NoSuchFileException("/x/game.nes")));
        assertEquals("Input/output error", IoReason.of(new java.nio.file.FileSystemException("/x/game.nes", null,
                "Input/output error")));
        assertEquals("disk on fire", IoReason.of(new IOException("disk on fire")));
    }

    @Test
    void canaryTakesEntryForAZipOfSeveralRoms() throws Exception {
        Path zip = tmp.resolve("several.zip");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(bytes)) {
            for (String name : new String[] {"one.nes", "two.nes"}) {
                z.putNextEntry(new ZipEntry(name));
                z.write(DemoRom.bytes());
                z.closeEntry();
            }
        }
        Files.write(zip, bytes.toByteArray());
        Canary.Target t = CanaryCommand.target(zip.toString(), "two.nes", null, 10, null);
        assertTrue(t.romName().endsWith("several.zip"), t.romName());
        assertEquals(DemoRom.bytes().length, t.rom().length);
        try {
            CanaryCommand.target(zip.toString(), null, null, 10, null);
            throw new AssertionError("a zip of several ROMs needs --entry");
        } catch (BadInput e) {
            assertTrue(e.getMessage().contains("--entry"), e.getMessage());
        }
        // The option exists on the command line (the jar is what is wrong here, not --entry).
        String line = assertOneLine(Cli.run("canary", "--baseline", tmp.resolve("none.jar").toString(), "--candidate",
                tmp.resolve("none.jar").toString(), "--rom", zip.toString(), "--entry", "two.nes"));
        assertTrue(line.contains("none.jar: not found"), line);
    }

    @Test
    void canaryHonoursItsTimeoutForAHostThatNeverSpeaks() throws Exception {
        Path silent = BuildCopy.buildSingle(tmp, "fake-silent", "lockstep.nes.app.EngineHostMain",
                CanaryTest.fakeHost("Thread.sleep(600000);\n"));
        long t0 = System.nanoTime();
        Cli.Result r = Cli.run("canary", "--baseline", silent.toString(), "--candidate", silent.toString(),
                "--frames", "10", "--timeout", "3", "--no-progress");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("hung") && r.err().contains("3000 ms"), r.err());
        assertTrue(seconds < 30, "a 3 s timeout waited " + seconds + " s");
    }

    /** {@code lockstep ARGS} in its own JVM without a display. */
    private static String[] noDisplay(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        pb.environment().put("XDG_CONFIG_HOME", tmp.resolve("config").toString());
        pb.environment().put("XDG_DATA_HOME", tmp.resolve("data").toString());
        Path err = tmp.resolve("stderr-" + System.nanoTime());
        pb.redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "lockstep " + String.join(" ", args) + " did not exit");
        return new String[] {Integer.toString(p.exitValue()), Files.readString(err, StandardCharsets.UTF_8).strip()};
    }

    @Test
    void aRomProblemIsReportedBeforeTheMissingWindow() throws Exception {
        Path missing = tmp.resolve("missing.nes");
        String[] r = noDisplay(missing.toString());
        assertEquals("2", r[0], r[1]);
        assertEquals("error: " + missing + ": not found", r[1]);
        Path folder = Files.createDirectories(tmp.resolve("games"));
        r = noDisplay(folder.toString());
        assertEquals("2", r[0], r[1]);
        assertEquals("error: " + folder + ": not a file", r[1]);
        // A ROM that opens leaves the window as the problem.
        Path good = Files.write(tmp.resolve("good.nes"), DemoRom.bytes());
        r = noDisplay(good.toString(), "--exit-after-frames", "1");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].startsWith("error: cannot open a window"), r[1]);
    }
}
