package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command that takes a ROM answers a bad one with one clear line and exit code 2 (the
 * wider corpus, outputs included, is {@link BadInputCorpusTest}).
 */
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
        Cli.Result r = run(command.stream().map(s -> s.replace("%s", rom.toString())).toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(rom.toString()), r.err());
        assertTrue(r.err().contains("truncated"), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @ParameterizedTest
    @MethodSource("commands")
    void missingRomGetsOneLineAndExitTwo(List<String> command) {
        Path rom = tmp.resolve("nope/missing.nes");
        Cli.Result r = run(command.stream().map(s -> s.replace("%s", rom.toString())).toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("not found"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @org.junit.jupiter.api.Test
    void badOptionValueGetsOneLineAndExitTwo() {
        Cli.Result r = run("headless", "--frames", "abc");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("--frames") && r.err().contains("abc"), r.err());
        Cli.Result u = run("verify", "--no-such-option");
        assertEquals(2, u.exit(), u.err());
        assertEquals(1, u.err().strip().lines().count(), u.err());
    }

    private static Cli.Result run(String... args) {
        return Cli.run(args);
    }
}
