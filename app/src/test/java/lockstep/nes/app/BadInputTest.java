package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every command that takes a ROM answers a bad one with one clear line and exit code 2. */
class BadInputTest {
    @TempDir
    static Path tmp;

    static Stream<List<String>> commands() {
        return Stream.of(List.of("headless", "%s", "--frames", "1"), List.of("info", "%s"),
                List.of("verify", "%s", "--frames", "1"), List.of("nestest", "%s", "%s"));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void truncatedRomGetsOneLineAndExitTwo(List<String> command) throws Exception {
        Path rom = tmp.resolve("truncated.nes");
        Files.write(rom, new byte[] {'N', 'E', 'S', 0x1A, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3});
        Run r = run(command.stream().map(s -> s.replace("%s", rom.toString())).toArray(String[]::new));
        assertEquals(2, r.exit, r.err);
        assertTrue(r.err.contains(rom.toString()), r.err);
        assertTrue(r.err.contains("truncated"), r.err);
        assertFalse(r.err.contains("Exception") || r.err.contains("\tat "), r.err);
        assertEquals(1, r.err.strip().lines().count(), r.err);
    }

    @ParameterizedTest
    @MethodSource("commands")
    void missingRomGetsOneLineAndExitTwo(List<String> command) {
        Path rom = tmp.resolve("nope/missing.nes");
        Run r = run(command.stream().map(s -> s.replace("%s", rom.toString())).toArray(String[]::new));
        assertEquals(2, r.exit, r.err);
        assertTrue(r.err.contains("not found"), r.err);
        assertFalse(r.err.contains("Exception"), r.err);
    }

    @org.junit.jupiter.api.Test
    void badOptionValueGetsOneLineAndExitTwo() {
        Run r = run("headless", "--frames", "abc");
        assertEquals(2, r.exit, r.err);
        assertEquals(1, r.err.strip().lines().count(), r.err);
        assertTrue(r.err.contains("--frames") && r.err.contains("abc"), r.err);
        Run u = run("verify", "--no-such-option");
        assertEquals(2, u.exit, u.err);
        assertEquals(1, u.err.strip().lines().count(), u.err);
    }

    record Run(int exit, String out, String err) {
    }

    static synchronized Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
