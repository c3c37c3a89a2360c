package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.verifier.AlertWebhook;
import lockstep.nes.verifier.MetricsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed inputs through the real command line (docs/cli-contract.md): every one gets exactly
 * one line on stderr (no stack trace) and its documented exit code, damages nothing (a device,
 * a FIFO or a symbolic link is still what it was) and leaves nothing behind (no temporary file).
 *
 * <p>The full disk is a character device made with {@code mknod c 1 7} (as /dev/full) and, when
 * {@code mount -t tmpfs -o size=64k} works (root in this sandbox), a real 64 KiB file system;
 * the cases that need them are left out where neither can be made.
 */
class BadInputCorpusTest {
    @TempDir
    static Path tmp;

    private static Path roms;
    private static Path outs;
    private static Path devNull;
    private static Path devFull;
    private static Path smallDisk;
    private static Path demoRom;
    private static byte[] snapshot;

    @BeforeAll
    static void makeInputs() throws Exception {
        roms = Files.createDirectories(tmp.resolve("roms"));
        outs = Files.createDirectories(tmp.resolve("outs"));
        demoRom = roms.resolve("demo.nes");
        Files.write(demoRom, DemoRom.bytes());
        Path dev = Files.createDirectories(tmp.resolve("dev"));
        if (sh("mknod", dev.resolve("null").toString(), "c", "1", "3")) {
            devNull = dev.resolve("null");
        }
        if (sh("mknod", dev.resolve("full").toString(), "c", "1", "7")) {
            devFull = dev.resolve("full");
        }
        Path disk = Files.createDirectories(tmp.resolve("small-disk"));
        if (sh("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.toString())) {
            smallDisk = disk;
        }
        Path state = tmp.resolve("good.state");
        Cli.Result r = Cli.run("headless", "--frames", "1", "--save-state", state.toString());
        assertEquals(0, r.exit(), r.err());
        snapshot = Files.readAllBytes(state);
        Files.delete(state);
    }

    @AfterAll
    static void unmount() {
        if (smallDisk != null) {
            sh("umount", smallDisk.toString());
        }
    }

    // ---- the inputs ----

    private static byte[] header(int prgBanks, int chrBanks, int flags6, int flags7) {
        byte[] h = new byte[16];
        h[0] = 'N';
        h[1] = 'E';
        h[2] = 'S';
        h[3] = 0x1A;
        h[4] = (byte) prgBanks;
        h[5] = (byte) chrBanks;
        h[6] = (byte) flags6;
        h[7] = (byte) flags7;
        return h;
    }

    private static Path file(String name, byte[] data) {
        try {
            return Files.write(roms.resolve(name), data);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path text(String name, String data) {
        return file(name, data.getBytes(StandardCharsets.UTF_8));
    }

    /** Bad ROMs, each with a word its one line must contain. */
    private static List<Object[]> badRoms() {
        byte[] mapper250 = Arrays.copyOf(header(1, 1, 0xA0, 0xF0), 16 + 16384 + 8192);
        byte[] bigPrg = Arrays.copyOf(header(8, 1, 0, 0), 16 + 300);
        byte[] badMagic = Arrays.copyOf(DemoRom.bytes(), DemoRom.bytes().length);
        byte[] zipped = zip("demo.nes", DemoRom.bytes());
        byte[] gzipped = gzip(DemoRom.bytes());
        badMagic[0] = 'X';
        return List.of(
                new Object[] {"empty", file("empty.nes", new byte[0]), "empty"},
                new Object[] {"truncated header", file("short.nes", Arrays.copyOf(header(1, 1, 0, 0), 8)), "truncated"},
                new Object[] {"bad magic", file("magic.nes", badMagic), ""},
                new Object[] {"PRG larger than the file", file("bigprg.nes", bigPrg), "truncated"},
                new Object[] {"unsupported mapper", file("m250.nes", mapper250), "mapper"},
                new Object[] {"a folder", roms.resolve("folder.nes"), ""},
                new Object[] {"a missing file", roms.resolve("missing.nes"), "not found"},
                new Object[] {"a text file", text("notes.nes", "this is not a ROM\n"), ""},
                new Object[] {"nestest's log", text("nestest.log", "C000  4C F5 C5  JMP $C5F5   A:00 X:00\n"), ""},
                new Object[] {"not a zip archive", text("fake.zip", "this is not an archive\n"), "not a zip archive"},
                new Object[] {"a corrupt zip archive", file("cut.zip", Arrays.copyOf(zipped, zipped.length / 2)),
                        "corrupt zip archive"},
                new Object[] {"a zip without a .nes", file("docs.zip", zip("readme.txt", DemoRom.bytes())),
                        "no .nes file inside"},
                new Object[] {"a zip with two .nes", file("two.zip", zip("a.nes", DemoRom.bytes(), "b.nes", DemoRom.bytes())),
                        "a.nes, b.nes): choose one with --entry NAME"},
                new Object[] {"a zip that unpacks too large", file("bomb.zip", zip("bomb.nes", new byte[(64 << 20) + 1])),
                        "too large"},
                new Object[] {"a corrupt gzip file", file("cut.nes.gz", Arrays.copyOf(gzipped, gzipped.length / 2)),
                        "corrupt gzip file"});
    }

    /** A zip archive of (name, bytes) pairs. */
    private static byte[] zip(Object... entries) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream z = new java.util.zip.ZipOutputStream(out)) {
            for (int i = 0; i < entries.length; i += 2) {
                z.putNextEntry(new java.util.zip.ZipEntry((String) entries[i]));
                z.write((byte[]) entries[i + 1]);
                z.closeEntry();
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] data) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(out)) {
            z.write(data);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static List<Object[]> badMovies() {
        byte[] utf16 = "version 3\nport0 1\n|0|........|||\n".getBytes(StandardCharsets.UTF_16LE);
        return List.of(
                new Object[] {"a ROM as a movie", file("rom.fm2", DemoRom.bytes()), "not a text file (line 1)"},
                new Object[] {"UTF-16", file("utf16.fm2", utf16), "not a text file (line 1)"},
                new Object[] {"binary after text", file("bin.fm2", concat("version 3\nport0 1\n".getBytes(StandardCharsets.UTF_8),
                        new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 1})), "not a text file (line 3)"},
                new Object[] {"a bad line", text("badline.fm2", "version 3\nthis-is not a line\n"), ":2:"},
                new Object[] {"a bad frame", text("badframe.fm2", "version 3\nport0 1\n|0|XYZ|||\n"), ":3:"},
                new Object[] {"a frame before the version", text("early.fm2", "|0|........|||\nversion 3\n"), ":1:"});
    }

    private static List<Object[]> badSnapshots() {
        byte[] flipped = snapshot.clone();
        flipped[flipped.length / 2] ^= 0x40;
        return List.of(
                new Object[] {"garbage", file("garbage.state", "not a snapshot at all".getBytes(StandardCharsets.UTF_8))},
                new Object[] {"truncated", file("half.state", Arrays.copyOf(snapshot, snapshot.length / 2))},
                new Object[] {"a bad checksum", file("flipped.state", flipped)},
                new Object[] {"empty", file("empty.state", new byte[0])});
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    // ---- the corpus ----

    /** One command line, its exit code and the word its error line must contain. */
    private record Case(String name, List<String> args, int exit, String mention) {
    }

    private static Case bad(String name, String mention, String... args) {
        return new Case(name, List.of(args), ExitCodes.BAD_INPUT, mention);
    }

    @TestFactory
    Stream<DynamicTest> badInputs() throws IOException {
        Files.createDirectories(roms.resolve("folder.nes"));
        List<Case> cases = new ArrayList<>();
        for (Object[] rom : badRoms()) {
            String p = rom[1].toString();
            String mention = (String) rom[2];
            cases.add(bad("headless: " + rom[0], mention, "headless", p, "--frames", "1"));
            cases.add(bad("verify: " + rom[0], mention, "verify", p, "--frames", "1"));
            if (!rom[0].equals("unsupported mapper")) { // info describes such a ROM (exit 0)
                cases.add(bad("info: " + rom[0], mention, "info", p));
            }
            cases.add(bad("bench: " + rom[0], mention, "bench", p, "--frames", "1", "--warmup", "0"));
        }
        for (Object[] m : badMovies()) {
            cases.add(bad("headless --movie: " + m[0], (String) m[2], "headless", "--frames", "1", "--movie", m[1].toString()));
            cases.add(bad("verify --movie: " + m[0], (String) m[2], "verify", "--frames", "1", "--movie", m[1].toString()));
        }
        cases.add(bad("nestest: a ROM as the log", "not a text file", "nestest", demoRom.toString(), demoRom.toString()));
        cases.add(bad("--alert-token-file: a ROM", "not a text file", "verify", "--frames", "1", "--alert-token-file",
                demoRom.toString()));
        for (Object[] s : badSnapshots()) {
            cases.add(bad("headless --load-state: " + s[0], s[1].toString(), "headless", "--frames", "1", "--load-state",
                    s[1].toString()));
            cases.add(bad("state dump: " + s[0], s[1].toString(), "state", "dump", s[1].toString()));
        }
        cases.add(bad("--inject: malformed", "garbage", "verify", "--frames", "1", "--inject", "garbage"));
        cases.add(bad("--inject: unknown kind", "bogus", "verify", "--frames", "1", "--inject", "bogus@10:A"));
        cases.add(bad("--inject: unknown field", "cpu.zz", "verify", "--frames", "1", "--inject", "reg@10:A:cpu.zz=1"));
        cases.add(bad("--inject: past the end", "ram-bitflip@900000000:", "verify", "--frames", "1", "--inject",
                "ram-bitflip@900000000:A:16:0"));
        cases.add(bad("--frames: not a number", "abc", "headless", "--frames", "abc"));
        cases.add(bad("--frames: negative", "-1", "headless", "--frames", "-1"));
        cases.add(bad("verify --frames 0", "--frames", "verify", "--frames", "0"));
        cases.add(bad("--metrics-port 70000", "70000", "verify", "--frames", "1", "--metrics-port", "70000"));
        cases.add(bad("--metrics-port -1", "-1", "farm", "worker", "--store", outs.resolve("w.db").toString(),
                "--metrics-port", "-1"));
        cases.add(bad("an unknown option", "--no-such-option", "verify", "--no-such-option"));
        cases.add(bad("--mode bogus", "bogus", "verify", "--frames", "1", "--mode", "bogus"));
        cases.add(bad("--checkpoint-every 0", "--checkpoint-every", "verify", "--frames", "1", "--checkpoint-every", "0"));
        cases.add(bad("test-roms --threads 0", "--threads", "test-roms", "--threads", "0"));
        cases.add(bad("bench --mode bogus", "bogus", "bench", "--mode", "bogus"));
        cases.add(bad("headless --battery-file with --battery", "--battery-file", "headless", "--frames", "1",
                "--battery", "--battery-file", outs.resolve("b.sav").toString()));
        cases.add(bad("farm status: no store", "no farm store", "farm", "status", "--store", outs.resolve("nope.db").toString()));
        cases.add(bad("farm report: no store", "no farm store", "farm", "report", "--store", outs.resolve("nope.db").toString()));

        // Outputs that cannot be written: refused before the run (a folder, a missing folder).
        for (String option : List.of("--json", "--dump-ram", "--screenshot", "--save-state", "--wav")) {
            cases.add(bad("headless " + option + " a folder", "folder", "headless", "--frames", "1", option, outs.toString()));
            cases.add(bad("headless " + option + " in a missing folder", "no folder", "headless", "--frames", "1", option,
                    outs.resolve("no/dir/out").toString()));
        }
        cases.add(bad("verify --report in a missing folder", "no folder", "verify", "--frames", "1", "--report",
                outs.resolve("no/dir/r.json").toString()));
        cases.add(bad("canary --html in a missing folder", "no folder", "canary", "--baseline", "a.jar", "--candidate",
                "b.jar", "--html", outs.resolve("no/dir/c.html").toString()));
        cases.add(bad("canary --report a folder", "folder", "canary", "--baseline", "a.jar", "--candidate", "b.jar",
                "--report", outs.toString()));
        cases.add(bad("test-roms --json in a missing folder", "no folder", "test-roms", "--json",
                outs.resolve("no/dir/t.json").toString()));
        cases.add(bad("farm status: a folder", "folder", "farm", "status", "--store", outs.toString()));

        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            List<Path> before = listing();
            Cli.Result r = Cli.run(c.args().toArray(String[]::new));
            oneErrorLine(r, c.exit(), c.mention());
            assertEquals(before, listing(), "nothing is left behind or created");
        }));
    }

    /** A zero-size file given as the farm store stays a zero-size file (it is not made a database). */
    @Test
    void farmStatusLeavesAZeroSizeFileAlone() throws IOException {
        Path empty = Files.createFile(outs.resolve("empty.db"));
        oneErrorLine(Cli.run("farm", "status", "--store", empty.toString()), 2, "not a farm store");
        assertEquals(0, Files.size(empty));
        Files.delete(empty);
    }

    // ---- outputs on devices, FIFOs and links ----

    @TestFactory
    Stream<DynamicTest> aFullDeviceIsAWriteErrorAndStaysADevice() {
        org.junit.jupiter.api.Assumptions.assumeTrue(devFull != null, "mknod c 1 7 is allowed (root)");
        return Stream.of("--json", "--dump-ram", "--screenshot", "--save-state", "--wav")
                .map(option -> DynamicTest.dynamicTest("headless " + option + " a full device", () -> {
                    List<Path> before = listing();
                    Cli.Result r = Cli.run("headless", "--frames", "1", option, devFull.toString());
                    oneErrorLine(r, 2, "space");
                    assertTrue(isCharDevice(devFull), "still a character device");
                    assertEquals(before, listing());
                }));
    }

    @Test
    void verifyReportToAFullDeviceExitsTwoAfterTheRun() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(devFull != null, "mknod c 1 7 is allowed (root)");
        Cli.Result r = Cli.run("verify", "--frames", "1", "--report", devFull.toString());
        oneErrorLine(r, 2, "space");
        assertTrue(isCharDevice(devFull));
    }

    @TestFactory
    Stream<DynamicTest> aNullDeviceIsWrittenInPlace() {
        org.junit.jupiter.api.Assumptions.assumeTrue(devNull != null, "mknod c 1 3 is allowed (root)");
        return Stream.of("--json", "--dump-ram", "--screenshot", "--save-state", "--wav")
                .map(option -> DynamicTest.dynamicTest("headless " + option + " a null device", () -> {
                    List<Path> before = listing();
                    Cli.Result r = Cli.run("headless", "--frames", "1", option, devNull.toString());
                    assertEquals(0, r.exit(), r.err());
                    assertEquals("", r.err());
                    assertTrue(isCharDevice(devNull), "still a character device, not a regular file");
                    assertEquals(before, listing());
                }));
    }

    @Test
    void aFifoGetsTheJsonAndStaysAFifo() throws Exception {
        Path fifo = outs.resolve("pipe");
        org.junit.jupiter.api.Assumptions.assumeTrue(sh("mkfifo", fifo.toString()), "mkfifo works");
        try {
            CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
                try (InputStream in = Files.newInputStream(fifo)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Cli.Result r = Cli.run("headless", "--frames", "1", "--json", fifo.toString());
            assertEquals(0, r.exit(), r.err());
            assertTrue(read.get(30, TimeUnit.SECONDS).contains("\"state\""), "the reader got the JSON");
            assertEquals(0010000, mode(fifo), "still a FIFO");
        } finally {
            Files.deleteIfExists(fifo);
        }
    }

    @Test
    void aSymlinkIsFollowedAndStaysALink() throws Exception {
        Path target = Files.write(outs.resolve("real.json"), "old".getBytes(StandardCharsets.UTF_8));
        Path link = Files.createSymbolicLink(outs.resolve("link.json"), target.getFileName());
        try {
            Cli.Result r = Cli.run("headless", "--frames", "1", "--json", link.toString());
            assertEquals(0, r.exit(), r.err());
            assertTrue(Files.isSymbolicLink(link), "still a link");
            assertTrue(Files.readString(target).contains("\"state\""), "the link's target got the JSON");
            assertEquals(List.of(link, target), listing().stream().filter(p -> p.startsWith(outs) && !p.equals(outs)).toList());
            // A link into a missing folder: refused before the run, the link untouched.
            Path dangling = Files.createSymbolicLink(outs.resolve("dangling.json"), outs.resolve("no/dir/x.json"));
            oneErrorLine(Cli.run("headless", "--frames", "1", "--json", dangling.toString()), 2, "no folder");
            assertTrue(Files.isSymbolicLink(dangling));
            Files.delete(dangling);
        } finally {
            Files.deleteIfExists(link);
            Files.deleteIfExists(target);
        }
    }

    /** A full disk: the WAV (streamed while the run goes) fails, one line, exit 2, no file left at all. */
    @Test
    void aWavOnAFullDiskLeavesNoFile() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(smallDisk != null, "a 64 KiB tmpfs can be mounted");
        Path wav = smallDisk.resolve("out.wav");
        Cli.Result r = Cli.run("headless", "--frames", "120", "--wav", wav.toString());
        oneErrorLine(r, 2, "space");
        try (Stream<Path> left = Files.list(smallDisk)) {
            assertEquals(List.of(), left.toList(), "no partial WAV and no temporary file");
        }
        // And a write that fits is whole.
        Cli.Result ok = Cli.run("headless", "--frames", "2", "--wav", wav.toString());
        assertEquals(0, ok.exit(), ok.err());
        byte[] head = Arrays.copyOf(Files.readAllBytes(wav), 4);
        assertArrayEquals("RIFF".getBytes(StandardCharsets.US_ASCII), head);
        Files.delete(wav);
    }

    /** {@code --json /dev/stdout | jq}: the JSON goes down the pipe and /dev/stdout is not replaced. */
    @Test
    void jsonToDevStdoutGoesDownThePipe() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "headless", "--frames", "1",
                "--json", "/dev/stdout").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("\"state\"") && out.contains("frames=1 "), out);
        assertTrue(Files.isSymbolicLink(Path.of("/dev/stdout")) || !Files.isRegularFile(Path.of("/dev/stdout")),
                "/dev/stdout is still what it was");
    }

    /**
     * A PAL ROM runs as PAL without a word; a Vs. System ROM runs as a home console with one
     * warning line; a bad --region is one error line.
     */
    @Test
    void aPalRomRunsAsPalAndAVsSystemRomWithOneWarningLine() throws IOException {
        byte[] image = DemoRom.bytes().clone();
        image[7] = 0x08; // NES 2.0
        image[12] = 0x01; // PAL timing
        Path pal = file("pal.nes", image);
        Cli.Result r = Cli.run("headless", pal.toString(), "--frames", "10");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err().strip(), r.err());
        Cli.Result forced = Cli.run("headless", pal.toString(), "--frames", "10", "--region", "pal");
        String stateRegex = "(?s).*(cycles=[0-9]+).*(state=[0-9a-f]+).*";
        assertEquals(r.out().replaceAll(stateRegex, "$1 $2"), forced.out().replaceAll(stateRegex, "$1 $2"),
                "--region pal on a PAL header changes nothing");
        Cli.Result ntsc = Cli.run("headless", pal.toString(), "--frames", "10", "--region", "ntsc");
        assertFalse(r.out().replaceAll(stateRegex, "$1").equals(ntsc.out().replaceAll(stateRegex, "$1")),
                "NTSC frames are shorter: " + ntsc.out());
        image[12] = 0x03; // Dendy
        image[7] = 0x09; // NES 2.0, Vs. System
        Files.write(pal, image);
        Cli.Result v = Cli.run("verify", pal.toString(), "--frames", "1");
        assertEquals(0, v.exit(), v.err());
        assertTrue(v.err().startsWith("warning: " + pal + ": a Vs. System ROM"), v.err());
        assertTrue(v.err().strip().endsWith("so it runs as a Dendy NES"), v.err());
        oneErrorLine(Cli.run("headless", pal.toString(), "--region", "secam"), 2, "--region must be ntsc, pal or dendy");
        Files.delete(pal);
    }

    // ---- webhook payloads ----

    @Test
    void webhookPayloads() throws Exception {
        AlertWebhook hook = new AlertWebhook("t0ken");
        hook.register("s", () -> new AlertWebhook.Outcome(true, "rolled back"));
        try (MetricsServer server = new MetricsServer(0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), hook)) {
            String url = "http://127.0.0.1:" + server.port() + "/alerts";
            assertEquals(400, post(url, "not json".getBytes(StandardCharsets.UTF_8)));
            assertEquals(400, post(url, "[1, 2, 3]".getBytes(StandardCharsets.UTF_8)));
            assertEquals(400, post(url, "{\"alerts\": 5}".getBytes(StandardCharsets.UTF_8)));
            assertEquals(400, post(url, new byte[] {(byte) 0xFF, 0, 1}));
            byte[] big = new byte[AlertWebhook.MAX_BODY * 2];
            Arrays.fill(big, (byte) '{');
            assertEquals(413, post(url, big));
        }
    }

    private static int post(String url, byte[] body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer t0ken").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    // ---- checks ----

    private static void oneErrorLine(Cli.Result r, int exit, String mention) {
        String err = r.err().strip();
        assertEquals(exit, r.exit(), "exit code; stderr: " + r.err());
        assertEquals(1, err.lines().count(), "exactly one line on stderr: " + r.err());
        assertTrue(err.startsWith("error: "), err);
        assertFalse(err.contains("Exception") || err.contains("\tat ") || err.contains("internal error"), err);
        assertTrue(err.contains(mention), "the line mentions '" + mention + "': " + err);
    }

    /** Everything under the temp folder except the small disk's mount point contents. */
    private static List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            List<Path> all = s.filter(p -> smallDisk == null || !p.startsWith(smallDisk) || p.equals(smallDisk))
                    .sorted().toList();
            for (Path p : all) {
                assertFalse(p.getFileName().toString().endsWith(".tmp"), "temporary file left: " + p);
            }
            return all;
        }
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
    }

    private static boolean isCharDevice(Path p) throws IOException {
        return mode(p) == 0020000;
    }

    private static boolean sh(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
