package lockstep.nes.core.movie;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Fm2Test {
    private static final String HEADER = """
            version 3
            emuVersion 22020
            rerecordCount 7
            palFlag 0
            romFilename Some Game (U)
            romChecksum base64:AAECAwQFBgcICQoLDA0ODw==
            guid 01234567-89AB-CDEF-0123-456789ABCDEF
            fourscore 0
            microphone 0
            port0 1
            port1 1
            port2 0
            FDS 0
            NewPPU 0
            comment author someone
            subtitle 10 hello world
            """;

    @Test
    void columnsAreRLDUTSBAReversedFromTheShiftOrder() throws Exception {
        Movie m = Fm2.parse(HEADER + "|0|R.......|.......A||\n|1|.L.U.S.A|RLDUTSBA||\n|2|........|........||\n", "m.fm2");
        assertEquals(3, m.frames().size());
        assertEquals(new Movie.Frame(0, Controllers.RIGHT, Controllers.A), m.frames().get(0));
        assertEquals(Controllers.LEFT | Controllers.UP | Controllers.SELECT | Controllers.A, m.frames().get(1).port0());
        assertEquals(0xFF, m.frames().get(1).port1());
        assertTrue(m.frames().get(1).reset());
        assertTrue(m.frames().get(2).power());
        assertEquals("Some Game (U)", m.get("romFilename"));
        assertEquals("7", m.get("rerecordCount"));
        assertEquals(List.of("author someone"), m.all("comment"));
        assertEquals(List.of("10 hello world"), m.all("subtitle"));
    }

    @Test
    void spacesAlsoMeanReleased() throws Exception {
        Movie m = Fm2.parse("version 3\n|0|   U    |        ||\n", "m.fm2");
        assertEquals(Controllers.UP, m.frames().get(0).port0());
    }

    @Test
    void roundTripWriteReadIsIdentical(@TempDir Path dir) throws Exception {
        Random r = new Random(99);
        List<Movie.Frame> frames = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int cmd = r.nextInt(50) == 0 ? 1 + r.nextInt(2) : 0;
            frames.add(new Movie.Frame(cmd, r.nextInt(256), r.nextInt(256)));
        }
        List<Movie.Header> header = new ArrayList<>(Movie.defaultHeader("game.nes", "base64:AAAA", "guid-1"));
        header.add(new Movie.Header("comment", "author test"));
        header.add(new Movie.Header("subtitle", "5 a subtitle"));
        Movie m = new Movie(header, frames);
        Path file = dir.resolve("m.fm2");
        Fm2.write(m, file);
        Movie back = Fm2.read(file);
        assertEquals(m, back);
        assertEquals(Files.readString(file), Fm2.format(back));
        // And a parsed FCEUX-style text writes back to the same text.
        String text = HEADER + "|0|R.......|.......A||\n|1|.L.U.S.A|RLDUTSBA||\n";
        assertEquals(text, Fm2.format(Fm2.parse(text, "x")));
    }

    @Test
    void portWithoutDeviceHasAnEmptyField() throws Exception {
        String text = "version 3\nport0 1\nport1 0\nport2 0\n|0|....T...|||\n";
        Movie m = Fm2.parse(text, "x");
        assertEquals(Controllers.START, m.frames().get(0).port0());
        assertEquals(0, m.frames().get(0).port1());
        assertEquals(text, Fm2.format(m));
    }

    @Test
    void malformedMoviesNameTheLine() {
        String[][] cases = {
            {"", ":1: not an fm2 movie"},
            {"version 2\n", ":1: unsupported fm2 version"},
            {"|0|........|........||\n", ":1: frame data before"},
            {"version 3\n|0|........|........||\nport0 1\n", ":3: header line after frame data"},
            {"version 3\n|x|........|........||\n", ":2: commands field"},
            {"version 3\n|0|.......|........||\n", ":2: port0 gamepad field"},
            {"version 3\n|0|........|.........||\n", ":2: port1 gamepad field"},
            {"version 3\n|0|........|........|\n", ":2: frame line has 3 fields"},
            {"version 3\n|0|........|........||", ":2:"},
            {"version 3\n|0|........|........||x\n", ":2: frame line must end"},
            {"version 3\n|0|........|........|zz|\n", ":2: port2 field"},
            {"version 3\nrerecordCount many\n", ":2: rerecordCount"},
            {"version 3\npalFlag 2\n", ":2: palFlag must be 0 or 1"},
            {"version 3\nfourscore 1\n", ":2: four-score"},
            {"version 3\nbinary 1\n", ":2: binary"},
            {"version 3\nport0 2\n", ":2: port0 2 is not supported"},
            {"version 3\n\n\n#junk\n", ":4: not a header line"},
            {"version 3\n|300|........|........||\n", ":2: commands 300 out of range"},
        };
        for (String[] c : cases) {
            if (c[0].endsWith("||")) {
                // A last line without a newline is fine.
                assertDoesNotThrow(() -> Fm2.parse(c[0], "bad.fm2"));
                continue;
            }
            MovieException e = assertThrows(MovieException.class, () -> Fm2.parse(c[0], "bad.fm2"), c[0]);
            assertTrue(e.getMessage().startsWith("bad.fm2:"), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), "expected '" + c[1] + "' in: " + e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void missingFileIsOneLine(@TempDir Path dir) {
        MovieException e = assertThrows(MovieException.class, () -> Fm2.read(dir.resolve("none.fm2")));
        assertTrue(e.getMessage().endsWith("none.fm2: not found"), e.getMessage());
    }
}
