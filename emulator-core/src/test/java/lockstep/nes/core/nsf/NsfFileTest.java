package lockstep.nes.core.nsf;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/** The NSF and NSFe parsers: the fields of good files, and one line naming the field for bad ones. */
class NsfFileTest {
    private static final String PROGRAM = "init:\n  rts\nplay:\n  rts\n";

    private static byte[] good() {
        return TestNsf.of(PROGRAM, 0, 16639, 3);
    }

    @Test
    void readsTheHeader() throws Exception {
        NsfFile f = NsfFile.parse("tones.nsf", good());
        assertEquals("Test Tones", f.title());
        assertEquals("lockstep", f.artist());
        assertEquals("2026 lockstep-nes", f.copyright());
        assertEquals(3, f.songs());
        assertEquals(0, f.firstSong());
        assertEquals(0x8000, f.load());
        assertEquals(0x8000, f.init());
        assertEquals(0x8001, f.play());
        assertEquals(16639, f.ntscPeriod());
        assertFalse(f.bankSwitched());
        assertEquals("none", f.chipNames());
        assertEquals(2, f.program().length);
    }

    private static void refused(String field, Consumer<byte[]> damage) {
        byte[] d = good();
        damage.accept(d);
        NsfFormatException e = assertThrows(NsfFormatException.class, () -> NsfFile.parse("bad.nsf", d));
        assertTrue(e.getMessage().startsWith("bad.nsf: "), e.getMessage());
        assertTrue(e.getMessage().contains(field), field + " in " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void badHeadersAreRefusedInOneLineNamingTheField() {
        refused("first song 0", d -> d[7] = 0);
        refused("first song 4", d -> d[7] = 4);
        refused("song count", d -> { d[6] = 0; d[7] = 0; });
        refused("load address $7000", d -> TestNsf.put16(d, 8, 0x7000));
        refused("init address $1234", d -> TestNsf.put16(d, 0xA, 0x1234));
        refused("play address $0000", d -> TestNsf.put16(d, 0xC, 0));
        refused("load address $5000 is below $6000", d -> { d[0x7B] = 4; TestNsf.put16(d, 8, 0x5000); });
        refused("bits 6-7", d -> d[0x7B] = (byte) 0x40);
        refused("runs past $FFFF", d -> TestNsf.put16(d, 8, 0xFFFF));
        refused("not an NSF", d -> d[0] = 'X');
        refused("program length", d -> { d[5] = 2; d[0x7D] = 0x10; });
    }

    @Test
    void aTruncatedHeaderIsRefused() {
        NsfFormatException e = assertThrows(NsfFormatException.class,
                () -> NsfFile.parse("short.nsf", Arrays.copyOf(good(), 100)));
        assertEquals("short.nsf: header truncated (100 bytes, the NSF header is 128)", e.getMessage());
        assertThrows(NsfFormatException.class, () -> NsfFile.parse("none.nsf", Arrays.copyOf(good(), 0x80)));
    }

    @Test
    void allSixChipsAreNamed() throws Exception {
        byte[] d = good();
        d[0x7B] = 0x3B;
        assertEquals("VRC6, VRC7, MMC5, N163, 5B", NsfFile.parse("chips.nsf", d).chipNames());
    }

    /** An NSFe file of the given chunks ({@code id, data} pairs) after the magic. */
    static byte[] nsfe(Object... chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("NSFE".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < chunks.length; i += 2) {
            byte[] data = (byte[]) chunks[i + 1];
            int n = data.length;
            out.write(n);
            out.write(n >> 8);
            out.write(n >> 16);
            out.write(n >> 24);
            out.writeBytes(((String) chunks[i]).getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(data);
        }
        return out.toByteArray();
    }

    private static byte[] info(int songs, int first) {
        return new byte[] {0x00, (byte) 0x80, 0x00, (byte) 0x80, 0x01, (byte) 0x80, 0, 1, (byte) songs, (byte) first};
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsAnNsfeFile() throws Exception {
        byte[] f = nsfe("INFO", info(2, 1), "DATA", new byte[] {0x60, 0x60}, "RATE", new byte[] {0x10, 0x27},
                "auth", bytes("Title\0Artist\0Copy\0Ripper\0"), "tlbl", bytes("One\0Two\0"),
                "time", new byte[] {(byte) 0xE8, 3, 0, 0, (byte) 0xD0, 7, 0, 0}, "text", bytes("ignored"),
                "NEND", new byte[0]);
        NsfFile n = NsfFile.parse("music.nsfe", f);
        assertEquals("Title", n.title());
        assertEquals("Artist", n.artist());
        assertEquals(2, n.songs());
        assertEquals(1, n.firstSong());
        assertEquals(10000, n.ntscPeriod());
        assertEquals("VRC6", n.chipNames());
        assertEquals("Two", n.trackName(1));
        assertEquals(2000, n.trackLength(1));
        assertEquals("", n.trackName(5));
        assertEquals(-1, n.trackLength(5));
    }

    @Test
    void readsTheNsfePlaylistAndFades() throws Exception {
        // plst: track numbers from 0, one a byte; fade: signed 32-bit ms per track (-1: default).
        byte[] f = nsfe("INFO", info(3, 0), "DATA", new byte[] {0x60, 0x60},
                "time", new byte[] {(byte) 0xE8, 3, 0, 0, -1, -1, -1, -1, (byte) 0xD0, 7, 0, 0},
                "fade", new byte[] {(byte) 0xF4, 1, 0, 0, -1, -1, -1, -1},
                "plst", new byte[] {2, 0, 9, 1}, "NEND", new byte[0]);
        NsfFile n = NsfFile.parse("music.nsfe", f);
        assertArrayEquals(new int[] {2, 0, 9, 1}, n.playlist());
        assertArrayEquals(new int[] {2, 0, 1}, n.order(), "entries past the song count are left out");
        assertEquals(500, n.trackFade(0));
        assertEquals(-1, n.trackFade(1), "negative: the player's default");
        assertEquals(-1, n.trackFade(2), "none given");
        assertEquals(-1, n.trackLength(1));
        NsfFile plain = NsfFile.parse("music.nsfe", nsfe("INFO", info(3, 0), "DATA", new byte[] {0x60},
                "NEND", new byte[0]));
        assertArrayEquals(new int[] {0, 1, 2}, plain.order(), "without a playlist: every track in turn");
    }

    private static void refusedNsfe(String field, byte[] f) {
        NsfFormatException e = assertThrows(NsfFormatException.class, () -> NsfFile.parse("bad.nsfe", f));
        assertTrue(e.getMessage().startsWith("bad.nsfe: "), e.getMessage());
        assertTrue(e.getMessage().contains(field), field + " in " + e.getMessage());
    }

    @Test
    void badNsfeFilesAreRefusedNamingTheChunk() {
        refusedNsfe("no INFO", nsfe("DATA", new byte[] {0x60}, "NEND", new byte[0]));
        refusedNsfe("no DATA", nsfe("INFO", info(1, 0), "NEND", new byte[0]));
        refusedNsfe("INFO chunk has 4 bytes", nsfe("INFO", new byte[4], "NEND", new byte[0]));
        refusedNsfe("'ZZZZ' is required", nsfe("INFO", info(1, 0), "ZZZZ", new byte[1], "DATA", new byte[] {0x60},
                "NEND", new byte[0]));
        refusedNsfe("no NEND", nsfe("INFO", info(1, 0), "DATA", new byte[] {0x60}));
        refusedNsfe("first song 3", nsfe("INFO", info(2, 3), "DATA", new byte[] {0x60}, "NEND", new byte[0]));
        byte[] cut = nsfe("INFO", info(1, 0), "DATA", new byte[] {0x60, 0x60, 0x60}, "NEND", new byte[0]);
        refusedNsfe("runs past the end", Arrays.copyOf(cut, cut.length - 10));
    }
}
