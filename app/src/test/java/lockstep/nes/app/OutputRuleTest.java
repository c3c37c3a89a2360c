package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command's file outputs by the one output rule (docs/cli-contract.md): an output that is
 * one of the command's inputs (the same file by any path or link), a full disk, a missing folder
 * or a folder is one line on stderr and exit 2, and the input is left as it was.
 */
class OutputRuleTest {
    @TempDir
    static Path tmp;

    private static Path rom;
    private static byte[] romBytes;
    private static Path movie;
    private static Path state;
    private static Path manifest;
    private static Path jarA;
    private static Path jarB;
    private static Path full;

    @BeforeAll
    static void inputs() throws Exception {
        rom = tmp.resolve("game.nes");
        romBytes = DemoRom.bytes();
        Files.write(rom, romBytes);
        movie = Files.writeString(tmp.resolve("run.fm2"), "version 3\nemuVersion 20604\nrerecordCount 0\npalFlag 0\n"
                + "romFilename game\nromChecksum base64:AAAAAAAAAAAAAAAAAAAAAA==\nguid 00000000-0000-0000-0000-000000000000\n"
                + "fourscore 0\nmicrophone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\n|0|........|||\n");
        state = tmp.resolve("s.lss");
        Cli.Result r = Cli.run("headless", "--frames", "1", "--save-state", state.toString());
        assertEquals(0, r.exit(), r.err());
        manifest = Files.writeString(tmp.resolve("manifest.json"), "[]");
        jarA = Files.write(tmp.resolve("a.jar"), new byte[] {'P', 'K'});
        jarB = Files.write(tmp.resolve("b.jar"), new byte[] {'P', 'K'});
        Path dev = Files.createDirectories(tmp.resolve("dev"));
        Process p = new ProcessBuilder("mknod", dev.resolve("full").toString(), "c", "1", "7").start();
        full = p.waitFor() == 0 ? dev.resolve("full") : Path.of("/dev/full");
    }

    /** A command line with {@code OUT} where its output goes. */
    private record Output(String name, List<String> args) {
        String[] with(Path out) {
            return args.stream().map(a -> a.replace("OUT", out.toString())).toArray(String[]::new);
        }
    }

    private static Output out(String name, String... args) {
        return new Output(name, List.of(args));
    }

    /** Every file output of every command, each with the inputs it reads. */
    private static List<Output> outputs() {
        String r = rom.toString();
        String canary = "canary --baseline=" + jarA + " --candidate=" + jarB + " --rom=" + r + " --frames=1";
        List<Output> o = new ArrayList<>();
        for (String option : List.of("--dump-ram", "--screenshot", "--json", "--save-state", "--wav", "--battery-file")) {
            o.add(out("headless " + option, "headless", r, "--frames", "1", "--movie", movie.toString(),
                    "--load-state", state.toString(), option, "OUT"));
        }
        o.add(out("verify --report", "verify", r, "--frames", "1", "--movie", movie.toString(), "--report", "OUT"));
        o.add(out("canary --report", (canary + " --report=OUT").split(" ")));
        o.add(out("canary --html", (canary + " --html=OUT").split(" ")));
        o.add(out("test-roms --json", "test-roms", "--roms", tmp.toString(), "--frames", "1", "--pictures",
                tmp.resolve("pictures").toString(), r, "--json", "OUT"));
        o.add(out("run --window-screenshot", "run", r, "--exit-after-frames", "1", "--window-screenshot", "OUT"));
        o.add(out("run --debugger-screenshot", "run", r, "--exit-after-frames", "1", "--debugger-screenshot", "OUT"));
        return o;
    }

    private static void oneLineExitTwo(Cli.Result r, String mention) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(mention), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    private static void unchanged() throws IOException {
        assertArrayEquals(romBytes, Files.readAllBytes(rom), "the ROM is as it was");
        assertTrue(Files.isRegularFile(rom, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @TestFactory
    Stream<DynamicTest> theRomIsNeverAnOutput() {
        return outputs().stream().map(o -> DynamicTest.dynamicTest(o.name() + " ROM", () -> {
            oneLineExitTwo(Cli.run(o.with(rom)), "would overwrite an input");
            unchanged();
        }));
    }

    @TestFactory
    Stream<DynamicTest> theRomThroughALinkOrAnotherPathIsNeverAnOutput() throws IOException {
        Path sym = Files.createSymbolicLink(tmp.resolve("sym.png"), rom);
        Path hard = Files.createLink(tmp.resolve("hard.png"), rom);
        Path dotted = tmp.resolve("dev/../game.nes");
        return outputs().stream().flatMap(o -> Stream.of(sym, hard, dotted).map(p ->
                DynamicTest.dynamicTest(o.name() + " " + tmp.relativize(p), () -> {
                    oneLineExitTwo(Cli.run(o.with(p)), "would overwrite an input");
                    unchanged();
                    assertTrue(Files.isSymbolicLink(sym));
                })));
    }

    @Test
    void theOtherInputsAreNeverOutputs() throws IOException {
        byte[] m = Files.readAllBytes(movie);
        byte[] s = Files.readAllBytes(state);
        oneLineExitTwo(Cli.run("headless", "--frames", "1", "--movie", movie.toString(), "--json", movie.toString()),
                "--json would overwrite an input");
        oneLineExitTwo(Cli.run("headless", "--frames", "1", "--load-state", state.toString(), "--save-state",
                state.toString()), "--save-state would overwrite an input");
        oneLineExitTwo(Cli.run("verify", "--frames", "1", "--movie", movie.toString(), "--report", movie.toString()),
                "--report would overwrite an input");
        oneLineExitTwo(Cli.run("canary", "--baseline", jarA.toString(), "--candidate", jarB.toString(), "--html",
                jarB.toString()), "--html would overwrite an input");
        oneLineExitTwo(Cli.run("test-roms", "--manifest", manifest.toString(), "--json", manifest.toString()),
                "--json would overwrite an input");
        oneLineExitTwo(Cli.run("test-roms", "--update-hashes", manifest.toString(), "--json", manifest.toString()),
                "--json would overwrite an input");
        assertArrayEquals(m, Files.readAllBytes(movie));
        assertArrayEquals(s, Files.readAllBytes(state));
        assertEquals("[]", Files.readString(manifest));
    }

    @Test
    void aSuitesRomsAreInputsOfTheCanary() throws IOException {
        Path suite = Files.writeString(tmp.resolve("suite.json"), "[{\"rom\": \"game.nes\"}]");
        Path jar = HostJar.make(Files.createDirectories(tmp.resolve("host")));
        Cli.Result r = Cli.run("canary", "--baseline", jar.toString(), "--candidate", jar.toString(), "--suite",
                suite.toString(), "--report", rom.toString());
        oneLineExitTwo(r, "would overwrite an input");
        unchanged();
    }

    @Test
    void theBatteryFileIsReadAndWrittenBackButNoOtherOutputReplacesIt() throws IOException {
        Path sav = Files.write(tmp.resolve("b.sav"), new byte[8192]);
        oneLineExitTwo(Cli.run("headless", "--frames", "1", "--battery-file", sav.toString(), "--json", sav.toString()),
                "--json would overwrite an input");
        assertArrayEquals(new byte[8192], Files.readAllBytes(sav));
    }

    @TestFactory
    Stream<DynamicTest> aMissingFolderOrAFolderIsRefusedBeforeTheRun() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("a-folder"));
        return outputs().stream().flatMap(o -> Stream.of(
                DynamicTest.dynamicTest(o.name() + " missing folder", () ->
                        oneLineExitTwo(Cli.run(o.with(tmp.resolve("no-such-folder/x.out"))), "no folder")),
                DynamicTest.dynamicTest(o.name() + " a folder", () -> {
                    oneLineExitTwo(Cli.run(o.with(folder)), "it is a folder");
                    assertTrue(Files.isDirectory(folder));
                })));
    }

    @Test
    void aFullDiskIsAnErrorNamingTheFile() throws IOException {
        oneLineExitTwo(Cli.run("verify", "--frames", "1", "--report", full.toString()), full + ": cannot write report");
        Path one = Files.createDirectories(tmp.resolve("one-rom")).resolve("demo.nes");
        Files.write(one, romBytes);
        Cli.Result t = Cli.run("test-roms", "--roms", one.getParent().toString(), "--frames", "1",
                "--pictures", tmp.resolve("pictures").toString(), one.toString(), "--json", full.toString());
        assertEquals(2, t.exit(), t.out() + t.err());
        assertTrue(t.err().contains(full + ": cannot write results (No space left on device)"), t.err());
        for (String option : List.of("--json", "--dump-ram", "--screenshot", "--save-state", "--wav")) {
            oneLineExitTwo(Cli.run("headless", "--frames", "1", option, full.toString()), full + ": cannot write");
        }
        assertFalse(Files.isRegularFile(full), "a device, still");
    }

    @Test
    void aCanaryReportOrPageOnAFullDiskIsAnErrorNamingTheFile() throws IOException {
        Path jar = HostJar.make(Files.createDirectories(tmp.resolve("host-full")));
        for (String option : List.of("--report", "--html")) {
            Cli.Result r = Cli.run("canary", "--baseline", jar.toString(), "--candidate", jar.toString(), "--rom",
                    rom.toString(), "--frames", "2", option, full.toString());
            assertEquals(2, r.exit(), option + ": " + r.out() + r.err());
            assertTrue(r.err().contains(full + ": cannot write"), option + ": " + r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        }
        assertFalse(Files.isRegularFile(full), "a device, still");
    }
}
