package lockstep.nes.desktop;

/**
 * A 5x7 pixel font for printable ASCII (32-126), drawn into an ARGB canvas. Each glyph is seven
 * rows of five bits, high bit on the left, plus an eighth row for the descenders of g, j, p, q
 * and y.
 */
final class BitmapFont {
    static final int GLYPH_W = 5;
    static final int GLYPH_H = 8;
    private static final int TABLE_H = 7;
    /** Advance per character and per line (one pixel between glyphs, two between lines (descenders use one of them)). */
    static final int CELL_W = 6;
    static final int CELL_H = 10;

    private static final String GLYPHS =
            "00000000000000" + "04040404000004" + "0A0A0A00000000" + "0A0A1F0A1F0A0A" // space ! " #
            + "040F140E051E04" + "18190204081303" + "0C121408151 20D".replace(" ", "") // $ % &
            + "0C040800000000" + "02040808080402" + "08040202020408" + "0004150E150400" // ' ( ) *
            + "0004041F040400" + "00000000 0C0408".replace(" ", "") + "0000001F000000" + "00000000000C0C" // + , - .
            + "00010204081000" // /
            + "0E111315191 10E".replace(" ", "") + "040C040404040E" + "0E110102040 81F".replace(" ", "") // 0 1 2
            + "1F020402011 10E".replace(" ", "") + "02060A121F0202" + "1F101E0101110E" + "0608101E11110E" // 3 4 5 6
            + "1F010204080808" + "0E11110E11110E" + "0E11110F01020C" // 7 8 9
            + "000C0C000C0C00" + "000C0C000C0408" + "02040810080402" + "00001F001F0000" // : ; < =
            + "08040201020408" + "0E110102040004" + "0E11010D15150E" // > ? @
            + "0E1111111F1111" + "1E11111E11111E" + "0E11101010110E" + "1C121111111 21C".replace(" ", "") // A B C D
            + "1F10101E10101F" + "1F10101E101010" + "0E111017 11110F".replace(" ", "") + "1111111F111111" // E F G H
            + "0E04040404040E" + "0702020202120C" + "11121418141211" + "1010101010101F" // I J K L
            + "111B1515111111" + "11111915131111" + "0E11111111110E" + "1E11111E101010" // M N O P
            + "0E11111115120D" + "1E11111E141211" + "0F10100E01011E" + "1F040404040404" // Q R S T
            + "1111111111110E" + "11111111110A04" + "1111111515150A" + "11110A040A1111" // U V W X
            + "1111110A040404" + "1F01020408101F" // Y Z
            + "0E08080808080E" + "00100804020100" + "0E02020202020E" + "040A1100000000" // [ \ ] ^
            + "0000000000001F" + "08040200000000" // _ `
            + "00000E010F110F" + "10101619111 11E".replace(" ", "") + "00000E1010110E" + "01010D1311110F" // a b c d
            + "00000E111F100E" + "0609081C080808" + "000F11110F010E" + "10101619111111" // e f g h
            + "04000C0404040E" + "02000602021 20C".replace(" ", "") + "10101214181412" + "0C04040404040E" // i j k l
            + "00001A15151111" + "00001619111111" + "00000E1111110E" + "00001E111E1010" // m n o p
            + "00000D130F0101" + "00001619101010" + "00000E100E011E" + "08081C08080906" // q r s t
            + "00001111111 30D".replace(" ", "") + "0000111111 0A04".replace(" ", "") + "0000111115150A" + "0000110A040A11" // u v w x
            + "00001111 0F010E".replace(" ", "") + "00001F0204081F" // y z
            + "02040408040402" + "04040404040404" + "08040402040408" + "00000815020000"; // { | } ~

    /** Letters that reach below the line, drawn from eight rows instead of the table's seven. */
    private static final String DESCENDERS = "gjpqy";
    private static final String DESCENDER_ROWS =
            "00000F11110F010E" + "0200060202021 20C".replace(" ", "") + "00001E11111E1010" + "00000F11110F0101"
            + "000011111 10F010E".replace(" ", "");

    private static final byte[] ROWS = decode();

    private BitmapFont() {
    }

    private static byte[] decode() {
        if (GLYPHS.length() != 95 * 14) {
            throw new IllegalStateException("font table has " + GLYPHS.length() / 14.0 + " glyphs, not 95");
        }
        byte[] rows = new byte[95 * GLYPH_H];
        for (int g = 0; g < 95; g++) {
            for (int y = 0; y < TABLE_H; y++) {
                int i = g * TABLE_H + y;
                rows[g * GLYPH_H + y] = (byte) Integer.parseInt(GLYPHS.substring(2 * i, 2 * i + 2), 16);
            }
        }
        for (int d = 0; d < DESCENDERS.length(); d++) {
            int g = DESCENDERS.charAt(d) - 32;
            for (int y = 0; y < GLYPH_H; y++) {
                int i = d * GLYPH_H + y;
                rows[g * GLYPH_H + y] = (byte) Integer.parseInt(DESCENDER_ROWS.substring(2 * i, 2 * i + 2), 16);
            }
        }
        return rows;
    }

    /** Row {@code y} (0-7) of character {@code c}: five bits, bit 4 leftmost. Unknown characters are '?'. */
    static int row(char c, int y) {
        int i = c >= 32 && c <= 126 ? c - 32 : '?' - 32;
        return ROWS[i * GLYPH_H + y];
    }
}
