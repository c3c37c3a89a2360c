package lockstep.nes.desktop.nsf;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.nsf.NsfFile;
import org.junit.jupiter.api.Test;

class NsfDeckTest {
    /** Three songs; init stores the song number (A) at $0010, so which song started can be read back. */
    private static NsfFile threeSongs(int first) throws Exception {
        Assembler.Program p = Assembler.assemble(String.join("\n",
                ".org $8000", "init:", "  sta $10", "  rts", "play:", "  rts", ""));
        byte[] prog = p.image(0x8000, p.size(), 0);
        byte[] d = new byte[0x80 + prog.length];
        byte[] magic = {'N', 'E', 'S', 'M', 0x1A, 1, 3, (byte) (first + 1), 0x00, (byte) 0x80};
        System.arraycopy(magic, 0, d, 0, magic.length);
        d[0xA] = (byte) p.symbol("init");
        d[0xB] = (byte) (p.symbol("init") >> 8);
        d[0xC] = (byte) p.symbol("play");
        d[0xD] = (byte) (p.symbol("play") >> 8);
        byte[] title = "Three Songs".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(title, 0, d, 0xE, title.length);
        byte[] artist = "lockstep".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(artist, 0, d, 0x2E, artist.length);
        d[0x6E] = (byte) (16639 & 0xFF);
        d[0x6F] = (byte) (16639 >> 8);
        System.arraycopy(prog, 0, d, 0x80, prog.length);
        return NsfFile.parse("three.nsf", d);
    }

    private static int songStarted(NsfDeck deck) {
        Console c = deck.console();
        c.runFrame();
        c.runFrame();
        return c.peek(0x10);
    }

    @Test
    void startsOnTheFilesFirstSongAndSwitchesBothWaysAround() throws Exception {
        NsfDeck deck = new NsfDeck(threeSongs(1), null);
        assertEquals(1, deck.track());
        assertEquals(1, songStarted(deck));
        deck.next();
        assertEquals(2, songStarted(deck));
        deck.next();
        assertEquals(0, deck.track(), "after the last, the first");
        assertEquals(0, songStarted(deck));
        deck.previous();
        assertEquals(2, deck.track(), "before the first, the last");
    }

    @Test
    void anNsfePlaylistSetsTheOrderOfTheTrackKeys() throws Exception {
        NsfFile f = threeSongs(0);
        NsfFile listed = new NsfFile(f.fileName(), f.title(), f.artist(), f.copyright(), f.songs(), f.firstSong(),
                f.load(), f.init(), f.play(), f.ntscPeriod(), f.palPeriod(), f.pal(), f.dual(), f.chips(), f.banks(),
                f.program(), f.trackNames(), f.trackMillis(), new int[] {2, 0}, new int[0]);
        NsfDeck deck = new NsfDeck(listed, null);
        deck.next();
        assertEquals(2, deck.track(), "from track 1, the playlist's next entry");
        assertEquals(2, songStarted(deck));
        deck.next();
        assertEquals(0, deck.track(), "after the playlist's last, its first");
        deck.previous();
        assertEquals(2, deck.track());
        deck = new NsfDeck(new NsfFile(f.fileName(), f.title(), f.artist(), f.copyright(), f.songs(), 1, f.load(),
                f.init(), f.play(), f.ntscPeriod(), f.palPeriod(), f.pal(), f.dual(), f.chips(), f.banks(), f.program(),
                f.trackNames(), f.trackMillis(), new int[] {2, 0}, new int[0]), null);
        deck.previous();
        assertEquals(0, deck.track(), "a first song outside the playlist moves to the playlist's last going back");
    }

    @Test
    void theScreenShowsTitleArtistAndTrack() throws Exception {
        NsfDeck deck = new NsfDeck(threeSongs(0), null);
        assertEquals(List.of("Three Songs", "lockstep", "track 1 / 3"), deck.lines());
        deck.previous();
        assertEquals("track 3 / 3", deck.lines().get(2));
    }
}
