package lockstep.nes.core.movie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

class MovieStartTest {
    private static Movie movie(String savestate) {
        List<Movie.Header> h = new ArrayList<>(Movie.defaultHeader("demo.nes", "base64:", "G"));
        if (savestate != null) {
            h.add(new Movie.Header(MovieStart.SAVESTATE, savestate));
        }
        return new Movie(h, List.of(new Movie.Frame(0, 0, 0)));
    }

    @Test
    void aPowerOnMovieChangesNothing() throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        assertFalse(MovieStart.fromState(movie(null)));
        assertNull(MovieStart.snapshot(movie(null), "m.fm2"));
        MovieStart.begin(movie(null), c, "m.fm2");
        assertEquals(0, c.frame());
    }

    @Test
    void aMovieFromAStateStartsThere() throws Exception {
        Console source = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        for (int i = 0; i < 30; i++) {
            source.runFrame();
        }
        byte[] snap = new Snapshots(source).save();
        Movie m = movie(MovieStart.header(snap));
        assertTrue(MovieStart.fromState(m));
        assertArrayEquals(snap, MovieStart.snapshot(m, "m.fm2"));
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        MovieStart.begin(m, c, "m.fm2");
        assertEquals(new Snapshots(source).stateHash(), new Snapshots(c).stateHash());
    }

    @Test
    void anotherEmulatorsStateOrBadBase64IsRefusedInOneLine() {
        String fceux = "base64:" + Base64.getEncoder().encodeToString("FCSX....".getBytes());
        MovieException e = assertThrows(MovieException.class, () -> MovieStart.snapshot(movie(fceux), "run.fm2"));
        assertEquals("run.fm2: the movie starts from a save state of another emulator (FCEUX), which cannot be loaded here",
                e.getMessage());
        MovieException b = assertThrows(MovieException.class, () -> MovieStart.snapshot(movie("base64:@@@"), "run.fm2"));
        assertTrue(b.getMessage().startsWith("run.fm2: the savestate header is not base64"), b.getMessage());
    }
}
