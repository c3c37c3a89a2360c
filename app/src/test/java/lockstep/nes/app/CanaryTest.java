package lockstep.nes.app;

import lockstep.nes.core.snapshot.SnapshotFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.verifier.MovieInput;
import lockstep.nes.verifier.canary.Canary;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.HostProtocol;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The canary against real second builds: copies of this repository's sources compiled by the
 * test (unchanged, with a behaviour-neutral rename, with one opcode's flag changed), each run as
 * its own engine-host JVM. Frames are kept small: the machine is shared.
 */
class CanaryTest {
    /** The behavioural change: LDA #imm (opcode $A9) leaves the Z flag inverted. */
    static final String LDA = "case LDA -> { c.a = v; nz(c, c.a); }";
    static final String LDA_PATCHED = "case LDA -> { c.a = v; nz(c, c.a); if (c.opcode == 0xA9) { c.p ^= Z; } }";
    /** The other behavioural change: the vblank flag is set three dots (one CPU cycle) late. */
    static final String VBLANK = "} else if (line == vblankLine && time.dot == 1) {";
    static final String VBLANK_PATCHED = "} else if (line == vblankLine && time.dot == 4) {";
    static final String PPU = "ppu/src/main/java/lockstep/nes/ppu/Ppu.java";
    static final String HOST_PROTOCOL = "verifier/src/main/java/lockstep/nes/verifier/host/HostProtocol.java";
    static final String FORMAT = "emulator-core/src/main/java/lockstep/nes/core/snapshot/SnapshotFormat.java";

    @TempDir
    static Path work;
    static Path copyJar;
    static Path flagJar;
    static Path renamedJar;
    static Path dotJar;
    static Path flagV2Jar;
    static Path movie;

    @BeforeAll
    static void buildCopies() throws IOException {
        copyJar = BuildCopy.build(work, "copy", null, null);
        flagJar = BuildCopy.build(work, "flag", BuildCopy.OPERATIONS, s -> {
            if (!s.contains(LDA)) {
                throw new IllegalStateException("Operations.java no longer has: " + LDA);
            }
            return s.replace(LDA, LDA_PATCHED);
        });
        // The same flag change in a build whose snapshot format version moved on.
        flagV2Jar = BuildCopy.build(work, "flag-v2", java.util.Map.of(
                BuildCopy.OPERATIONS, s -> s.replace(LDA, LDA_PATCHED),
                FORMAT, s -> s.replace("VERSION = 1;", "VERSION = 2;")));
        dotJar = BuildCopy.build(work, "dot", PPU, s -> {
            if (!s.contains(VBLANK)) {
                throw new IllegalStateException("Ppu.java no longer has: " + VBLANK);
            }
            return s.replace(VBLANK, VBLANK_PATCHED);
        });
        // Behaviour-neutral: a private method renamed everywhere; its host also says it speaks
        // protocol version 2 (as builds before HASHES did), so the canary keeps both hosts on the
        // version-1 observable hashes.
        renamedJar = BuildCopy.build(work, "renamed", java.util.Map.of(
                BuildCopy.CPU, s -> s.replaceAll("\\bnz\\(", "setNegativeZero("),
                BuildCopy.OPERATIONS, s -> s.replaceAll("\\bnz\\(", "setNegativeZero("),
                BuildCopy.WHOLE_INSTRUCTION, s -> s.replaceAll("\\bnz\\(", "setNegativeZero("),
                HOST_PROTOCOL, s -> {
                    // The protocol's own version, not TRACE_VERSION, CHEATS_VERSION or DISK_VERSION.
                    if (!java.util.regex.Pattern.compile("\\bVERSION = \\d+;").matcher(s).find()) {
                        throw new IllegalStateException("HostProtocol.java no longer has: VERSION = N;");
                    }
                    return s.replaceAll("\\bVERSION = \\d+;", "VERSION = 2;");
                }));
        movie = work.resolve("input.fm2");
        Fm2.write(testMovie(), movie);
    }

    /** Buttons that make the demo react (A, B, the d-pad) and a soft reset. */
    static Movie testMovie() {
        List<Movie.Frame> frames = new ArrayList<>();
        for (int f = 0; f < 200; f++) {
            int pad = 0;
            if (f >= 20 && f < 30) {
                pad |= 0x01; // A
            }
            if (f >= 40 && f < 45) {
                pad |= 0x02; // B
            }
            if (f >= 50 && f < 90) {
                pad |= 0x80; // Right
            }
            if (f >= 90 && f < 110) {
                pad |= 0x20; // Down
            }
            frames.add(new Movie.Frame(f == 150 ? Fm2.COMMAND_RESET : 0, pad, 0));
        }
        return new Movie(Movie.defaultHeader("lockstep-demo.nes", "base64:", "00000000-0000-0000-0000-000000000000"), frames);
    }

    static Path sharedRom() {
        String dir = System.getenv("LOCKSTEP_ROMS");
        if (dir == null || dir.isBlank()) {
            dir = System.getProperty("lockstep.roms", "");
        }
        Path rom = Path.of(dir, "nes-test-roms", "instr_test-v5", "rom_singles", "01-basics.nes");
        if (!Files.isRegularFile(rom)) {
            String msg = "shared test ROM not found: " + rom;
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(msg);
            }
            Assumptions.assumeTrue(false, msg);
        }
        return rom;
    }

    @Test
    void currentBuildAgainstItselfPasses() throws Exception {
        String cp = System.getProperty("java.class.path");
        Canary.Options o = new Canary.Options();
        o.checkpointEvery = 50;
        try (Canary c = Canary.start(cp, cp, o)) {
            assertEquals(HostProtocol.HASH_XXH64, c.hashScheme(), "two version-3 hosts hash with XXH64");
            Movie m = testMovie();
            CanaryResult demo = c.run(new Canary.Target(DemoRom.NAME, DemoRom.bytes(), "input.fm2", m, 200));
            assertEquals("pass", demo.status(), () -> String.valueOf(demo));
            assertEquals(200, demo.framesCompared());
            assertTrue(demo.cyclesBaseline() > 200L * 29_000);
            assertEquals(demo.finalStateHashBaseline(), demo.finalStateHashCandidate());

            Path rom = sharedRom();
            CanaryResult shared = c.run(new Canary.Target(rom.toString(), Files.readAllBytes(rom), "input.fm2", m, 90));
            assertEquals("pass", shared.status(), () -> String.valueOf(shared));
            assertEquals(90, shared.framesCompared());
            assertEquals(shared.cyclesBaseline(), shared.cyclesCandidate());
        }
    }

    @Test
    void behaviourNeutralRenamePassesOnASuite() throws Exception {
        Path rom = sharedRom();
        Path suite = work.resolve("suite.json");
        Files.writeString(suite, "[{\"rom\": \"builtin:demo\", \"movie\": \"input.fm2\", \"frames\": 200},\n"
                + " {\"rom\": \"" + rom.toString().replace("\\", "\\\\") + "\", \"movie\": \"input.fm2\", \"frames\": 90}]");
        Path report = work.resolve("neutral.json");
        Cli.Result r = Cli.run("canary", "--baseline", copyJar.toString(), "--candidate", renamedJar.toString(),
                "--suite", suite.toString(), "--report", report.toString(), "--checkpoint-every", "50");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("canary: PASS: 2 ROM(s), 290 frames"), r.out());
        assertTrue(r.out().contains("first divergence"), "summary table: " + r.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.get("passed").asBoolean());
        assertEquals(2, json.get("results").size());
        // A version-2 host: both hosts compared with the version-1 hashes.
        assertEquals("fnv1a-64", json.get("observableHashes").asText(), json.toPrettyString());
        // Two builds of different bytes: the build ids differ, the behaviour does not.
        assertFalse(json.get("baseline").get("buildId").asText().equals(json.get("candidate").get("buildId").asText()));
    }

    @Test
    void oneOpcodesFlagChangeIsNamedByCycleAndField() throws Exception {
        long expected = firstLdaImmediateCycle(200);
        Path report = work.resolve("flag.json");
        Path html = work.resolve("flag.html");
        Cli.Result r = Cli.run("canary", "--baseline", copyJar.toString(), "--candidate", flagJar.toString(),
                "--rom", "builtin:demo", "--movie", movie.toString(), "--frames", "200", "--report", report.toString(),
                "--html", html.toString());
        // Kept for a person to read: the terminal report and the HTML report of a real divergence.
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "canary-flag.txt"), r.out());
        Files.copy(html, Path.of("target", "canary-flag.html"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("DIVERGED"), r.out());
        JsonNode res = new ObjectMapper().readTree(report.toFile()).get("results").get(0);
        assertEquals("diverged", res.get("status").asText());
        JsonNode first = res.get("divergence").get("firstCycle");
        assertNotNull(first, res.toPrettyString());
        assertEquals(expected, first.get("cycle").asLong(), res.toPrettyString());
        assertTrue(first.get("instruction").asText().startsWith("LDA #"), first.toPrettyString());
        JsonNode p = null;
        for (JsonNode f : first.get("fields")) {
            if (f.get("field").asText().equals("cpu.p")) {
                p = f;
            }
        }
        assertNotNull(p, "cpu.p among the differing fields: " + first.get("fields"));
        assertEquals(0x02, Integer.decode(p.get("baseline").asText()) ^ Integer.decode(p.get("candidate").asText()),
                "only Z differs: " + p);
        assertTrue(r.out().contains("first divergent cycle " + expected), r.out());
        assertTrue(r.out().contains("cpu.p: "), r.out());
        String page = Files.readString(html);
        assertTrue(page.contains("DIVERGED") && page.contains("cpu.p"), page);
        // Both builds' last 32 instructions, from the re-run that named the cycle: the LDA #imm
        // whose flag differs, then the instruction after it, whose line shows the two P values.
        JsonNode trace = res.get("divergence").get("trace");
        assertNotNull(trace, res.toPrettyString());
        assertEquals(32, trace.get("a").size(), trace.toPrettyString());
        assertEquals(32, trace.get("b").size(), trace.toPrettyString());
        assertEquals(31, trace.get("firstDifference").asInt(), trace.toPrettyString());
        String lastA = trace.get("a").get(31).asText();
        String lastB = trace.get("b").get(31).asText();
        assertTrue(lastA.endsWith("CYC:" + expected) && lastB.endsWith("CYC:" + expected), trace.toPrettyString());
        assertTrue(trace.get("a").get(30).asText().contains("LDA #"), trace.toPrettyString());
        assertEquals(trace.get("a").get(30).asText(), trace.get("b").get(30).asText());
        int p0 = lastA.indexOf(" P:");
        assertEquals(lastA.substring(0, p0), lastB.substring(0, p0), "the same instruction, registers but P");
        assertEquals(0x02, Integer.parseInt(lastA.substring(p0 + 3, p0 + 5), 16)
                ^ Integer.parseInt(lastB.substring(p0 + 3, p0 + 5), 16), lastA + " / " + lastB);
        assertTrue(r.out().contains("    > A " + lastA) && r.out().contains("    > B " + lastB), r.out());
        assertTrue(page.contains("<table class=\"trace\">"), page);
        assertTrue(page.contains("<tr class=\"first\"><td>&#9654;</td><td>" + CanaryHtml.esc(lastA) + "</td><td>"
                + CanaryHtml.esc(lastB) + "</td></tr>"), page);
    }

    @Test
    void acrossStateFormatsTheFrameAndObservablesAreNamed() throws Exception {
        Path report = work.resolve("v2.json");
        Cli.Result r = Cli.run("canary", "--baseline", copyJar.toString(), "--candidate", flagV2Jar.toString(),
                "--rom", "builtin:demo", "--movie", movie.toString(), "--frames", "200", "--report", report.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode d = new ObjectMapper().readTree(report.toFile()).get("results").get(0).get("divergence");
        assertFalse(d.get("sameStateFormat").asBoolean());
        assertTrue(d.get("firstCycle").isNull(), d.toPrettyString());
        assertTrue(d.get("note").asText().contains("state formats differ"), d.toPrettyString());
        // The state hash is not compared across formats: what differs is an observable.
        List<String> differing = new ArrayList<>();
        d.get("differing").forEach(x -> differing.add(x.asText()));
        assertFalse(differing.contains("state"), differing.toString());
        assertTrue(differing.contains("ram"), differing.toString());
        assertTrue(d.get("observables").get("ramBytesDiffering").asInt() > 0, d.toPrettyString());
        assertTrue(r.out().contains("RAM: "), r.out());
    }

    @Test
    void onePpuDotMovedIsNamedByCycleAndField() throws Exception {
        long expected = firstVblankCycle(200);
        Path report = work.resolve("dot.json");
        Cli.Result r = Cli.run("canary", "--baseline", copyJar.toString(), "--candidate", dotJar.toString(),
                "--rom", "builtin:demo", "--movie", movie.toString(), "--frames", "200", "--report", report.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode first = new ObjectMapper().readTree(report.toFile()).get("results").get(0).get("divergence").get("firstCycle");
        assertNotNull(first, r.out());
        assertEquals(expected, first.get("cycle").asLong(), r.out());
        assertEquals(241, first.get("scanline").asInt(), r.out());
        boolean vblank = false;
        for (JsonNode f : first.get("fields")) {
            if (f.get("field").asText().equals("ppu.vblank")) {
                vblank = f.get("baseline").asText().equals("true") && f.get("candidate").asText().equals("false");
            }
        }
        assertTrue(vblank, "ppu.vblank: true -> false among " + first.get("fields"));
    }

    /** The first cycle at whose end this build's PPU shows the vblank flag. */
    static long firstVblankCycle(int frames) throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        MovieInput in = new MovieInput(testMovie());
        for (int f = 0; f < frames; f++) {
            in.apply(f, c);
            long start = c.frame();
            while (c.frame() == start) {
                c.runCycle();
                if ((c.ppu().peekRegister(2) & 0x80) != 0) {
                    return c.cycles();
                }
            }
        }
        throw new AssertionError("no vblank flag seen");
    }

    /**
     * The cycle at whose end the first LDA #imm completes, found with this build's engine fed the
     * same movie the way a host feeds it.
     */
    static long firstLdaImmediateCycle(int frames) throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        MovieInput in = new MovieInput(testMovie());
        for (int f = 0; f < frames; f++) {
            in.apply(f, c);
            long start = c.frame();
            while (c.frame() == start) {
                int op = c.cpu().opcode();
                c.runCycle();
                if (op == 0xA9 && c.cpu().opcode() != 0xA9) {
                    return c.cycles();
                }
            }
        }
        throw new AssertionError("the demo never completes an LDA #imm");
    }

    @Test
    void badJarsRomsAndMoviesExit2WithOneLine() throws Exception {
        Path text = work.resolve("not-a-jar.jar");
        Files.writeString(text, "hello");
        Path badMovie = work.resolve("bad.fm2");
        Files.writeString(badMovie, "version 3\n|0|XX|........||\n");
        String c = copyJar.toString();
        String[][] cases = {
            {"--baseline", work.resolve("missing.jar").toString(), "--candidate", c},
            {"--baseline", c, "--candidate", text.toString()},
            {"--baseline", c, "--candidate", c, "--rom", text.toString()},
            {"--baseline", c, "--candidate", c, "--movie", badMovie.toString()},
            {"--baseline", c, "--candidate", c, "--suite", text.toString()},
        };
        for (String[] args : cases) {
            String[] full = new String[args.length + 1];
            full[0] = "canary";
            System.arraycopy(args, 0, full, 1, args.length);
            Cli.Result r = Cli.run(full);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.out() + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("error: "), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    /** A fake host's source: {@code body} runs in main with {@code out} the protocol stream. */
    static String fakeHost(String body) {
        return "package lockstep.nes.app;\n"
                + "import java.io.*;\n"
                + "public final class EngineHostMain {\n"
                + "  static void hello(DataOutputStream out, int version) throws IOException {\n"
                + "    ByteArrayOutputStream b = new ByteArrayOutputStream(); DataOutputStream d = new DataOutputStream(b);\n"
                + "    d.write(new byte[] {'L','S','N','E','S','H','S','T'}); d.writeShort(version); d.writeInt(1);\n"
                + "    d.writeUTF(\"fake\"); d.writeUTF(\"17\");\n"
                + "    out.writeInt(b.size() + 1); out.write(0x40); out.write(b.toByteArray()); out.flush();\n"
                + "  }\n"
                + "  public static void main(String[] args) throws Exception {\n"
                + "    DataOutputStream out = new DataOutputStream(System.out);\n"
                + body
                + "  }\n"
                + "}\n";
    }

    @Test
    void hostsThatCrashHangOrSpeakAnotherVersionAreNeverAPass() throws Exception {
        String cls = "lockstep.nes.app.EngineHostMain";
        Path version = BuildCopy.buildSingle(work, "fake-version", cls, fakeHost("hello(out, 99); Thread.sleep(60000);\n"));
        Path crash = BuildCopy.buildSingle(work, "fake-crash", cls, fakeHost("System.err.println(\"boom\"); System.exit(7);\n"));
        Path hang = BuildCopy.buildSingle(work, "fake-hang", cls, fakeHost("hello(out, 1); Thread.sleep(600000);\n"));
        Path dies = BuildCopy.buildSingle(work, "fake-dies", cls,
                fakeHost("hello(out, 1); System.in.read(); System.err.println(\"dying\"); System.exit(9);\n"));
        String c = copyJar.toString();

        Cli.Result v = Cli.run("canary", "--baseline", c, "--candidate", version.toString(), "--frames", "10");
        assertEquals(2, v.exit(), v.out() + v.err());
        assertTrue(v.err().contains("protocol version 99"), v.err());

        Cli.Result x = Cli.run("canary", "--baseline", c, "--candidate", crash.toString(), "--frames", "10");
        assertEquals(2, x.exit(), x.out() + x.err());
        assertTrue(x.err().contains("crashed") && x.err().contains("exit code 7") && x.err().contains("boom"), x.err());

        Path report = work.resolve("hang.json");
        Cli.Result h = Cli.run("canary", "--baseline", c, "--candidate", hang.toString(), "--frames", "10",
                "--timeout", "10", "--report", report.toString());
        assertEquals(1, h.exit(), h.out() + h.err());
        assertTrue(h.out().contains("ERROR") && h.out().contains("timeout") && h.out().contains("hung"), h.out());
        JsonNode res = new ObjectMapper().readTree(report.toFile()).get("results").get(0);
        assertEquals("error", res.get("status").asText());
        assertEquals("timeout", res.get("errorKind").asText());

        Cli.Result d = Cli.run("canary", "--baseline", c, "--candidate", dies.toString(), "--frames", "10");
        assertEquals(1, d.exit(), d.out() + d.err());
        assertTrue(d.out().contains("crashed") && d.out().contains("exit code 9") && d.out().contains("dying"), d.out());
    }
}
