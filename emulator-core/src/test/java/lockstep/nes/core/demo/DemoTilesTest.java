package lockstep.nes.core.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DemoTilesTest {
    private static final byte[] CHR = DemoTiles.chr();

    private static int px(int tile, int x, int y) {
        return Preview.pixel(CHR, tile, x, y);
    }

    private static int count(int tile) {
        int n = 0;
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                if (px(tile, x, y) != 0) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void tileBitPlanes() {
        TileSet t = new TileSet().tile(1, """
                123.....
                ........
                ........
                ........
                ........
                ........
                ........
                .......3
                """);
        byte[] chr = t.bytes();
        assertEquals(0x2000, chr.length);
        assertEquals((byte) 0b1010_0000, chr[16]);       // plane 0, row 0: colours 1 and 3
        assertEquals((byte) 0b0110_0000, chr[16 + 8]);   // plane 1, row 0: colours 2 and 3
        assertEquals(1, chr[16 + 7]);
        assertEquals(1, chr[16 + 15]);
        assertEquals(3, t.pixel(1, 7, 7));
        assertThrows(IllegalArgumentException.class, () -> new TileSet().tile(0, "1234"));
        assertThrows(IllegalArgumentException.class, () -> new TileSet().tile(0, "x.......\n".repeat(8)));
    }

    @Test
    void fontGlyphsSitAtTheirAsciiCodesWithAShadow() {
        assertEquals(8192, CHR.length);
        assertEquals(0, count(' '));
        assertEquals(0, count(DemoTiles.BLANK));
        // 'L': a vertical bar in column 1 (ink, colour 1), shadow (colour 2) one pixel right, down.
        for (int y = 0; y < 7; y++) {
            assertEquals(1, px('L', 1, y), "L ink at row " + y);
        }
        assertEquals(2, px('L', 2, 1));
        assertEquals(1, px('L', 5, 6));
        assertEquals(2, px('L', 6, 7));
        for (char c = 'A'; c <= 'Z'; c++) {
            assertTrue(count(c) > 10, "glyph " + c);
        }
        for (char c = '0'; c <= '9'; c++) {
            assertTrue(count(c) > 10, "glyph " + c);
        }
    }

    @Test
    void bigLettersAreTheFontAtDoubleSize() {
        int l = DemoTiles.BIG + 4 * ('L' - 'A');
        // The 2x2 pixel of font pixel (0, 0) is at (2..3, 1..2) of the top-left tile, colour 3
        // (upper half); font row 6 lands in the bottom tiles in colour 1.
        assertEquals(3, px(l, 2, 1));
        assertEquals(3, px(l, 3, 2));
        assertEquals(1, px(l + 2, 2, 5));      // font row 6 -> big rows 13-14 -> bottom tile rows 5-6
        assertEquals(1, px(l + 3, 3, 5));      // font (4, 6) -> big x 10-11 -> right tile x 2-3
        assertEquals(2, px(l + 3, 4, 7));      // its shadow
    }

    @Test
    void spriteTilesAreDrawn() {
        for (int t = DemoTiles.ROBOT; t < DemoTiles.ROBOT + 4; t++) {
            assertTrue(count(t) > 15, "robot tile " + t);
        }
        assertTrue(count(DemoTiles.BALL) > 30);
        assertTrue(count(DemoTiles.STAR) > 10);
        assertEquals(64, count(DemoTiles.BORDER));
        assertEquals(1, count(DemoTiles.FIELD));
    }
}
