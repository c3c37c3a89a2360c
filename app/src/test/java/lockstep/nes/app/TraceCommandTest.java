package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lockstep.nes.core.TestRoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCommandTest {
    static Path nestest() {
        return TestRoms.require("other/nestest.nes");
    }

    @Test
    void nestestInAutomationModeMatchesTheGoldenLogLineForLine() throws Exception {
        Path rom = nestest();
        List<String> golden = Files.readAllLines(rom.resolveSibling("nestest.log"));
        Cli.Result r = Cli.run("trace", rom.toString(), "--pc", "C000", "--count", "8991");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(golden.size(), lines.size());
        for (int i = 0; i < golden.size(); i++) {
            assertEquals(golden.get(i), lines.get(i), "line " + (i + 1));
        }
    }

    @Test
    void jsonLinesCarryTheSameFields() throws Exception {
        Path rom = nestest();
        Cli.Result r = Cli.run("trace", rom.toString(), "--pc", "$C000", "--count", "3", "--json");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size());
        JsonNode first = new ObjectMapper().readTree(lines.get(0));
        assertEquals("C000", first.get("pc").asText());
        assertEquals("JMP $C5F5", first.get("disassembly").asText());
        assertEquals("24", first.get("p").asText());
        assertEquals(7, first.get("cycle").asLong());
        assertEquals("C5F5", new ObjectMapper().readTree(lines.get(1)).get("pc").asText());
    }

    @Test
    void startsAtTheRequestedCycleOrFrame() throws Exception {
        Cli.Result byCycle = Cli.run("trace", "--from", "100000", "--count", "2", "--json");
        assertEquals(0, byCycle.exit(), byCycle.err());
        JsonNode c = new ObjectMapper().readTree(byCycle.out().lines().findFirst().orElseThrow());
        assertTrue(c.get("cycle").asLong() >= 100000 && c.get("cycle").asLong() < 100000 + 8, c.toString());

        Cli.Result byFrame = Cli.run("trace", "builtin:demo", "--from", "f5", "--count", "1", "--json");
        assertEquals(0, byFrame.exit(), byFrame.err());
        JsonNode f = new ObjectMapper().readTree(byFrame.out().trim());
        assertEquals(5, f.get("frame").asLong());
    }

    @Test
    void badValuesAreOneLineErrors(@TempDir Path tmp) throws Exception {
        Cli.Result pc = Cli.run("trace", "--pc", "XYZ");
        assertEquals(2, pc.exit());
        assertEquals("error: --pc XYZ: not a CPU address (hex $0000-$FFFF, e.g. C000)", pc.err().trim());
        Cli.Result from = Cli.run("trace", "--from", "f-3");
        assertEquals(2, from.exit());
        assertEquals("error: --from f-3: expected a frame number after f", from.err().trim());
        Path missing = tmp.resolve("none.lss");
        Cli.Result state = Cli.run("trace", "--load-state", missing.toString());
        assertEquals(2, state.exit());
        assertEquals("error: " + missing + ": not found", state.err().trim());
    }

    /**
     * A movie that carries its save state: headless and trace start from that state (frame 30
     * here, not power-on) and count the movie's frames from it; verify refuses it in one line.
     */
    @Test
    void moviesFromASaveStateStartFromIt(@TempDir Path tmp) throws Exception {
        lockstep.nes.core.Console c = lockstep.nes.core.Console.create(
                lockstep.nes.core.cart.Cartridge.parse(lockstep.nes.core.demo.DemoRom.NAME, lockstep.nes.core.demo.DemoRom.bytes()));
        for (int i = 0; i < 30; i++) {
            c.runFrame();
        }
        byte[] snap = new lockstep.nes.core.snapshot.Snapshots(c).save();
        java.util.List<lockstep.nes.core.movie.Movie.Header> h = new java.util.ArrayList<>(
                lockstep.nes.core.movie.Movie.defaultHeader("lockstep-demo.nes", "base64:", "G"));
        h.add(new lockstep.nes.core.movie.Movie.Header("savestate", lockstep.nes.core.movie.MovieStart.header(snap)));
        java.util.List<lockstep.nes.core.movie.Movie.Frame> frames = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            frames.add(new lockstep.nes.core.movie.Movie.Frame(0, i < 10 ? 0x80 : 0x01, 0));
        }
        Path fm2 = tmp.resolve("from-state.fm2");
        lockstep.nes.core.movie.Fm2.write(new lockstep.nes.core.movie.Movie(h, frames), fm2);

        lockstep.nes.verifier.MovieInput in = new lockstep.nes.verifier.MovieInput(lockstep.nes.core.movie.Fm2.read(fm2));
        for (int i = 0; i < 20; i++) {
            in.apply(i, c);
            c.runFrame();
        }
        String expected = new lockstep.nes.core.snapshot.Snapshots(c).stateHash();
        Cli.Result headless = Cli.run("headless", "--movie", fm2.toString(), "--frames", "20");
        assertEquals(0, headless.exit(), headless.err());
        assertTrue(headless.out().contains("frames=20 ") && headless.out().contains("state=" + expected), headless.out());

        Cli.Result trace = Cli.run("trace", "--movie", fm2.toString(), "--count", "1", "--json");
        assertEquals(0, trace.exit(), trace.err());
        assertEquals(30, new ObjectMapper().readTree(trace.out().trim()).get("frame").asLong());

        Cli.Result verify = Cli.run("verify", "--movie", fm2.toString(), "--frames", "5");
        assertEquals(2, verify.exit());
        assertTrue(verify.err().contains("the movie starts from a save state; verify plays movies from power-on"), verify.err());
    }
}
