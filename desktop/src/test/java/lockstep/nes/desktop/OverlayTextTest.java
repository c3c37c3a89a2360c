package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;

import org.junit.jupiter.api.Test;

class OverlayTextTest {
    private static String render(Canvas c, int x0, int y0, int w, int h) {
        StringBuilder b = new StringBuilder();
        for (int y = y0; y < y0 + h; y++) {
            for (int x = x0; x < x0 + w; x++) {
                b.append(c.pixels[y * c.width + x] != 0 ? '#' : '.');
            }
            b.append('\n');
        }
        return b.toString();
    }

    @Test
    void lettersAreDrawnFromTheFont() {
        Canvas c = new Canvas(20, 10);
        c.text(1, 1, "A1", 0xFFFFFFFF);
        assertEquals("""
                .###..
                #...#.
                #...#.
                #...#.
                #####.
                #...#.
                #...#.
                """, render(c, 1, 1, 6, 7));
        assertEquals("""
                ..#..
                .##..
                ..#..
                ..#..
                ..#..
                ..#..
                .###.
                """, render(c, 7, 1, 5, 7));
    }

    @Test
    void descendersUseTheEighthRow() {
        Canvas c = new Canvas(12, 9);
        c.text(0, 0, "pa", 0xFFFFFFFF);
        assertEquals("""
                .....
                .....
                ####.
                #...#
                #...#
                ####.
                #....
                #....
                """, render(c, 0, 0, 5, 8));
        assertEquals(0, BitmapFont.row('a', 7));
    }

    @Test
    void everyPrintableCharacterHasAGlyphAndOnlySpaceIsBlank() {
        for (char ch = 32; ch < 127; ch++) {
            int bits = 0;
            for (int y = 0; y < BitmapFont.GLYPH_H; y++) {
                int row = BitmapFont.row(ch, y);
                assertTrue(row >= 0 && row < 32, "5 bits wide: '" + ch + "'");
                bits |= row;
            }
            assertEquals(ch == ' ', bits == 0, "'" + ch + "'");
        }
        assertEquals(BitmapFont.row('?', 3), BitmapFont.row('\u00e9', 3), "unknown characters show as '?'");
    }

    @Test
    void textThatDoesNotFitIsCutNotWrappedOrThrown() {
        Canvas c = new Canvas(30, 9);
        c.text(0, 0, "ABCDEFGHIJ", 0xFFFFFFFF);
        c.text(-3, -3, "XYZ", 0xFFFFFFFF);
        c.panel(20, 5, List.of("a long line that runs off"), 0xFFFFFFFF);
        assertEquals(5, c.fits(0));
    }

    @Test
    void wrapBreaksAtSpaces() {
        assertEquals(List.of("cannot open", "broken.nes:", "not an iNES file"),
                DesktopApp.wrap(List.of("cannot open", "broken.nes: not an iNES file"), 16));
        assertEquals(List.of("abcdefgh", "ijkl"), DesktopApp.wrap(List.of("abcdefghijkl"), 8));
    }
}
