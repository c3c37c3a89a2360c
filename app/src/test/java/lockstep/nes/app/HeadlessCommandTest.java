package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeadlessCommandTest {
    private static final Pattern LAST = Pattern.compile("frames=(\\d+) cycles=(\\d+) fps=([0-9.]+) state=([0-9a-f]{64}) rom=.+");

    record Result(int code, String out, String err) {
        String last() {
            String[] lines = out.strip().split("\n");
            return lines[lines.length - 1];
        }

        Matcher summary() {
            Matcher m = LAST.matcher(last());
            assertTrue(m.matches(), "last line: " + last());
            return m;
        }
    }

    static synchronized Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Runs Main in a new JVM (same classpath). */
    static Result runProcess(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /** The same tiny program as the emulator-core state tests, as an iNES file. */
    static Path tinyRom(Path dir) throws Exception {
        int[] code = {
            0x78, 0xD8, 0xA2, 0xFF, 0x9A, 0xAD, 0x02, 0x20, 0x10, 0xFB, 0xA9, 0x80, 0x8D, 0x00, 0x20,
            0xE6, 0x00, 0xA9, 0x01, 0x8D, 0x16, 0x40, 0xA9, 0x00, 0x8D, 0x16, 0x40, 0xAD, 0x16, 0x40,
            0x29, 0x01, 0x65, 0x01, 0x85, 0x01, 0xA5, 0x00, 0xA6, 0x00, 0x9D, 0x00, 0x03, 0x8D, 0x00,
            0x60, 0x4C, 0x0F, 0xC0, 0xE6, 0x10, 0x48, 0xA9, 0x03, 0x8D, 0x14, 0x40, 0x68, 0x40, 0x40,
        };
        byte[] file = new byte[16 + 16384 + 8192];
        file[0] = 'N';
        file[1] = 'E';
        file[2] = 'S';
        file[3] = 0x1A;
        file[4] = 1;
        file[5] = 1;
        file[6] = 1; // vertical mirroring
        for (int i = 0; i < code.length; i++) {
            file[16 + i] = (byte) code[i];
        }
        int[] vectors = {0x31, 0xC0, 0x00, 0xC0, 0x3B, 0xC0};
        for (int i = 0; i < 6; i++) {
            file[16 + 0x3FFA + i] = (byte) vectors[i];
        }
        Path rom = dir.resolve("tiny.nes");
        Files.write(rom, file);
        return rom;
    }

    @Test
    void splitRunInANewProcessGivesTheSameStateHash(@TempDir Path dir) throws Exception {
        Path rom = tinyRom(dir);
        Path json = dir.resolve("summary.json");
        Path ram = dir.resolve("ram.bin");
        Path png = dir.resolve("last.png");
        Result straight = run("headless", rom.toString(), "--frames", "600", "--json", json.toString(),
                "--dump-ram", ram.toString(), "--screenshot", png.toString());
        assertEquals(0, straight.code(), straight.err());
        Matcher s = straight.summary();
        assertEquals("600", s.group(1));

        Path half = dir.resolve("half.snap");
        Result first = run("headless", rom.toString(), "--frames", "300", "--save-state", half.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(Files.size(half) > 1000);
        Result second = runProcess("headless", rom.toString(), "--frames", "300", "--load-state", half.toString());
        assertEquals(0, second.code(), second.err());
        Matcher t = second.summary();
        assertEquals(s.group(2), t.group(2), "cycles");
        assertEquals(s.group(4), t.group(4), "state hash of 600 frames straight vs 300 + load + 300");
        assertNotEquals(first.summary().group(4), s.group(4));

        assertEquals(2048, Files.size(ram));
        assertTrue(Files.size(png) > 0);
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals(600, j.get("frames").asInt());
        assertEquals(s.group(4), j.get("state").asText());
        assertEquals(Long.parseLong(s.group(2)), j.get("cycles").asLong());
        assertEquals(64, j.get("frameHash").asText().length());
        assertTrue(j.get("rom").asText().endsWith("tiny.nes"));
    }

    @Test
    void demoRomIsTheDefaultAndSplitsExactlyToo(@TempDir Path dir) throws Exception {
        Result straight = run("headless", "--frames", "600");
        assertEquals(0, straight.code(), straight.err());
        Path half = dir.resolve("demo.snap");
        Result first = run("headless", "--frames", "300", "--save-state", half.toString());
        assertEquals(0, first.code(), first.err());
        Result second = runProcess("headless", "--frames", "300", "--load-state", half.toString());
        assertEquals(0, second.code(), second.err());
        assertEquals(straight.summary().group(2), second.summary().group(2), "cycles");
        assertEquals(straight.summary().group(4), second.summary().group(4), "state hash");
    }

    @Test
    void movieInputReachesTheGame(@TempDir Path dir) throws Exception {
        Path rom = tinyRom(dir);
        List<Movie.Frame> frames = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            // A held on frames 10-19; a soft reset on frame 30.
            frames.add(new Movie.Frame(i == 30 ? Fm2.COMMAND_RESET : 0, i >= 10 && i < 20 ? 0x01 : 0, 0));
        }
        Path movie = dir.resolve("m.fm2");
        Fm2.write(new Movie(Movie.defaultHeader("tiny.nes", "base64:", "0"), frames), movie);
        Path withRam = dir.resolve("with.bin");
        Path withoutRam = dir.resolve("without.bin");
        Result with = run("headless", rom.toString(), "--frames", "60", "--movie", movie.toString(),
                "--dump-ram", withRam.toString());
        Result without = run("headless", rom.toString(), "--frames", "60", "--dump-ram", withoutRam.toString());
        assertEquals(0, with.code(), with.err());
        assertEquals(0, without.code(), without.err());
        // $01 accumulates the A button; the reset keeps RAM.
        assertTrue((Files.readAllBytes(withRam)[1] & 0xFF) > 0);
        assertEquals(0, Files.readAllBytes(withoutRam)[1]);
        assertNotEquals(with.summary().group(4), without.summary().group(4));
    }

    @Test
    void badInputsGiveOneLineAndExitCode2(@TempDir Path dir) throws Exception {
        Path rom = tinyRom(dir);
        Path junk = dir.resolve("junk.nes");
        Files.write(junk, new byte[] {1, 2, 3});
        Path badMovie = dir.resolve("bad.fm2");
        Files.writeString(badMovie, "version 3\n|0|....|........||\n");
        Path badState = dir.resolve("bad.snap");
        Files.write(badState, new byte[100]);
        Path otherState = dir.resolve("other.snap");
        String[][] cases = {
            {"headless", dir.resolve("missing.nes").toString(), "--frames", "1"},
            {"headless", junk.toString(), "--frames", "1"},
            {"headless", rom.toString(), "--frames", "1", "--movie", badMovie.toString()},
            {"headless", rom.toString(), "--frames", "1", "--movie", dir.resolve("none.fm2").toString()},
            {"headless", rom.toString(), "--frames", "1", "--load-state", badState.toString()},
            {"headless", rom.toString(), "--frames", "1", "--load-state", dir.resolve("none.snap").toString()},
            {"headless", rom.toString(), "--frames", "-1"},
            {"state", "dump", badState.toString()},
            {"state", "diff", badState.toString(), badState.toString()},
        };
        for (String[] c : cases) {
            Result r = run(c);
            assertEquals(2, r.code(), String.join(" ", c) + "\n" + r.out() + r.err());
            String err = r.err().strip();
            assertTrue(err.startsWith("error: ") && !err.contains("\n"), String.join(" ", c) + ": " + err);
            assertFalse(err.contains("Exception"), err);
        }
        assertTrue(run(cases[2]).err().contains("bad.fm2:2:"), "movie errors name the line");
        // A snapshot of another ROM is refused by the ROM check.
        byte[] other = Files.readAllBytes(rom);
        other[16 + 100] ^= 1;
        Path otherRom = dir.resolve("other.nes");
        Files.write(otherRom, other);
        assertEquals(0, run("headless", otherRom.toString(), "--frames", "2", "--save-state", otherState.toString()).code());
        Result r = run("headless", rom.toString(), "--frames", "1", "--load-state", otherState.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("another ROM"), r.err());
    }

    @Test
    void stateDumpAndDiff(@TempDir Path dir) throws Exception {
        Path rom = tinyRom(dir);
        Path a = dir.resolve("a.snap");
        Path b = dir.resolve("b.snap");
        assertEquals(0, run("headless", rom.toString(), "--frames", "5", "--save-state", a.toString()).code());
        assertEquals(0, run("headless", rom.toString(), "--frames", "6", "--save-state", b.toString()).code());
        Result dump = run("state", "dump", a.toString());
        assertEquals(0, dump.code(), dump.err());
        JsonNode j = new ObjectMapper().readTree(dump.out());
        assertEquals(1, j.get("format").asInt());
        assertTrue(j.get("state").get("cpu").has("pc"), dump.out());
        assertEquals(4096, j.get("state").get("console").get("ram").asText().length());

        Result same = run("state", "diff", a.toString(), a.toString());
        assertEquals(0, same.code());
        assertEquals("snapshots are identical", same.last());
        Result diff = run("state", "diff", a.toString(), b.toString());
        assertEquals(1, diff.code(), diff.err());
        assertTrue(diff.out().contains("console.cycle: "), diff.out());
        assertTrue(diff.out().lines().anyMatch(l -> l.startsWith("console.ram[0x")), diff.out());
        assertTrue(diff.last().endsWith("differing fields"), diff.last());
    }
}
