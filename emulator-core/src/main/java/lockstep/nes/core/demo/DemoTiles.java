package lockstep.nes.core.demo;

/**
 * The demo ROM's CHR-ROM, drawn in code: a 5x7 font (with a drop shadow) at the ASCII codes
 * $20-$5F, the same font at double size for the title, and the background and sprite tiles.
 * Both the background and the sprites use pattern table 0.
 */
public final class DemoTiles {
    private DemoTiles() {
    }

    // Tile numbers (the assembly source gets them as constants).
    public static final int BLANK = 0x00;
    public static final int BORDER = 0x01;
    public static final int FIELD = 0x02;
    public static final int BALL = 0x08;
    public static final int STAR = 0x09;
    /** The player's 16x16 robot: top-left, top-right, bottom-left, bottom-right. */
    public static final int ROBOT = 0x0C;
    /** Double-size letter c ('A'-'Z') is 4 tiles from BIG + 4 * (c - 'A'): TL, TR, BL, BR. */
    public static final int BIG = 0x80;

    /**
     * The font, 5x7: a character, then its 7 rows ('#' ink, '.' paper). Characters missing here
     * are blank.
     */
    private static final String FONT = """
            A .###. #...# #...# ##### #...# #...# #...#
            B ####. #...# #...# ####. #...# #...# ####.
            C .###. #...# #.... #.... #.... #...# .###.
            D ####. #...# #...# #...# #...# #...# ####.
            E ##### #.... #.... ####. #.... #.... #####
            F ##### #.... #.... ####. #.... #.... #....
            G .###. #...# #.... #.### #...# #...# .####
            H #...# #...# #...# ##### #...# #...# #...#
            I .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
            J ..### ...#. ...#. ...#. ...#. #..#. .##..
            K #...# #..#. #.#.. ##... #.#.. #..#. #...#
            L #.... #.... #.... #.... #.... #.... #####
            M #...# ##.## #.#.# #.#.# #...# #...# #...#
            N #...# #...# ##..# #.#.# #..## #...# #...#
            O .###. #...# #...# #...# #...# #...# .###.
            P ####. #...# #...# ####. #.... #.... #....
            Q .###. #...# #...# #...# #.#.# #..#. .##.#
            R ####. #...# #...# ####. #.#.. #..#. #...#
            S .###. #...# #.... .###. ....# #...# .###.
            T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
            U #...# #...# #...# #...# #...# #...# .###.
            V #...# #...# #...# #...# #...# .#.#. ..#..
            W #...# #...# #...# #.#.# #.#.# ##.## #...#
            X #...# #...# .#.#. ..#.. .#.#. #...# #...#
            Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
            Z ##### ....# ...#. ..#.. .#... #.... #####
            0 .###. #...# #..## #.#.# ##..# #...# .###.
            1 ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.
            2 .###. #...# ....# ...#. ..#.. .#... #####
            3 ##### ...#. ..#.. ...#. ....# #...# .###.
            4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
            5 ##### #.... ####. ....# ....# #...# .###.
            6 ..##. .#... #.... ####. #...# #...# .###.
            7 ##### ....# ...#. ..#.. .#... .#... .#...
            8 .###. #...# #...# .###. #...# #...# .###.
            9 .###. #...# #...# .#### ....# ...#. .##..
            - ..... ..... ..... ##### ..... ..... .....
            : ..... ..#.. ..#.. ..... ..#.. ..#.. .....
            / ....# ....# ...#. ..#.. .#... #.... #....
            . ..... ..... ..... ..... ..... .##.. .##..
            ! ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..
            """;

    /** The player's robot, 16x16, cut into the four ROBOT tiles: 2 outline, 1 body, 3 eyes. */
    private static final String ROBOT_PICTURE = """
            .......33.......
            .......22.......
            ...2222222222...
            ..211111111112..
            ..213311113312..
            ..213311113312..
            ..211111111112..
            ..211333333112..
            ..211111111112..
            ...2222222222...
            .....211112.....
            ..222111111222..
            .2.2111111112.2.
            ...2111111112...
            ...22......22...
            ..222......222..
            """;

    /** Builds the 8 KiB CHR-ROM. */
    public static byte[] chr() {
        TileSet t = new TileSet();
        // A bevelled block for the border: light top-left edge, dark bottom-right edge.
        t.tile(BORDER, """
                33333331
                31111112
                31111112
                31111112
                31111112
                31111112
                31111112
                12222222
                """);
        // The playfield: a faint dot grid.
        t.tile(FIELD, """
                ........
                ........
                ........
                ...2....
                ........
                ........
                ........
                ........
                """);
        // A shaded ball with a highlight.
        t.tile(BALL, """
                ..2222..
                .211112.
                21331112
                21311112
                21111112
                21111122
                .211122.
                ..2222..
                """);
        t.tile(STAR, """
                ...3....
                ...3....
                ..323...
                33222333
                ..323...
                .3...3..
                3.....3.
                ........
                """);
        drawRobot(t);
        drawFont(t);
        return t.bytes();
    }

    private static void drawRobot(TileSet t) {
        String[] rows = ROBOT_PICTURE.trim().split("\\s+");
        for (int quarter = 0; quarter < 4; quarter++) {
            int[][] p = new int[8][8];
            for (int y = 0; y < 8; y++) {
                for (int x = 0; x < 8; x++) {
                    char c = rows[(quarter >> 1) * 8 + y].charAt((quarter & 1) * 8 + x);
                    p[y][x] = c == '.' ? 0 : c - '0';
                }
            }
            t.pixels(ROBOT + quarter, p);
        }
    }

    private static void drawFont(TileSet t) {
        for (String line : FONT.strip().split("\n")) {
            String[] parts = line.trim().split("\\s+");
            char c = parts[0].charAt(0);
            if (parts.length != 8) {
                throw new IllegalStateException("glyph " + c + ": need 7 rows");
            }
            boolean[][] ink = new boolean[7][5];
            for (int y = 0; y < 7; y++) {
                if (parts[y + 1].length() != 5) {
                    throw new IllegalStateException("glyph " + c + " row " + y + ": need 5 pixels");
                }
                for (int x = 0; x < 5; x++) {
                    ink[y][x] = parts[y + 1].charAt(x) == '#';
                }
            }
            t.pixels(c, small(ink));
            if (c >= 'A' && c <= 'Z') {
                int[][] big = big(ink);
                int base = BIG + 4 * (c - 'A');
                for (int q = 0; q < 4; q++) {
                    int[][] p = new int[8][8];
                    for (int y = 0; y < 8; y++) {
                        for (int x = 0; x < 8; x++) {
                            p[y][x] = big[(q >> 1) * 8 + y][(q & 1) * 8 + x];
                        }
                    }
                    t.pixels(base + q, p);
                }
            }
        }
    }

    /** An 8x8 glyph: ink colour 1 at (1..5, 0..6), its shadow colour 2 one pixel right and down. */
    private static int[][] small(boolean[][] ink) {
        int[][] p = new int[8][8];
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 5; x++) {
                if (ink[y][x]) {
                    p[y + 1][x + 2] = 2;
                }
            }
        }
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 5; x++) {
                if (ink[y][x]) {
                    p[y][x + 1] = 1;
                }
            }
        }
        return p;
    }

    /**
     * A 16x16 glyph: each font pixel becomes 2x2 at (2 + 2x, 1 + 2y); the upper half in colour
     * 3, the lower half in colour 1, with a colour-2 shadow one pixel right and down.
     */
    private static int[][] big(boolean[][] ink) {
        int[][] p = new int[16][16];
        for (int pass = 0; pass < 2; pass++) {
            for (int y = 0; y < 7; y++) {
                for (int x = 0; x < 5; x++) {
                    if (!ink[y][x]) {
                        continue;
                    }
                    for (int dy = 0; dy < 2; dy++) {
                        for (int dx = 0; dx < 2; dx++) {
                            int py = 1 + 2 * y + dy;
                            int px = 2 + 2 * x + dx;
                            if (pass == 0) {
                                p[py + 1][px + 1] = 2;
                            } else {
                                p[py][px] = py < 8 ? 3 : 1;
                            }
                        }
                    }
                }
            }
        }
        return p;
    }
}
