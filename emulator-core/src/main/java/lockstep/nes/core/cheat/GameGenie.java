package lockstep.nes.core.cheat;

/**
 * Decodes NES Game Genie codes. The sixteen letters APZLGITYEOXUKSVN stand for the nibbles 0-15.
 * A 6-letter code gives a 15-bit address in $8000-$FFFF and a value; an 8-letter code adds a
 * compare value: the substitution happens only while the cartridge's byte equals it (so a code
 * hits one bank of a bank-switched ROM).
 *
 * <p>With the letters' nibbles n0..n7 (NESdev, "Game Genie"):
 * address = $8000 | (n3&7)&lt;&lt;12 | (n5&7)&lt;&lt;8 | (n4&8)&lt;&lt;8 | (n2&7)&lt;&lt;4 | (n1&8)&lt;&lt;4 | (n4&7) | (n3&8);
 * value = (n1&7)&lt;&lt;4 | (n0&8)&lt;&lt;4 | (n0&7) | (last&8), where last is n5 for 6 letters and n7 for 8;
 * compare = (n7&7)&lt;&lt;4 | (n6&8)&lt;&lt;4 | (n6&7) | (n5&8).
 */
public final class GameGenie {
    private static final String LETTERS = "APZLGITYEOXUKSVN";

    private GameGenie() {
    }

    /** True when {@code code} is made of Game Genie letters only (any case). */
    static boolean looksLike(String code) {
        for (int i = 0; i < code.length(); i++) {
            if (LETTERS.indexOf(Character.toUpperCase(code.charAt(i))) < 0) {
                return false;
            }
        }
        return !code.isEmpty();
    }

    /** The cheat a 6- or 8-letter code stands for. */
    public static Cheat decode(String code) throws CheatException {
        final int len = code.length();
        if (len != 6 && len != 8) {
            throw new CheatException("cheat '" + code + "': a Game Genie code has 6 or 8 letters, not " + len);
        }
        final int[] n = new int[len];
        for (int i = 0; i < len; i++) {
            final char c = Character.toUpperCase(code.charAt(i));
            n[i] = LETTERS.indexOf(c);
            if (n[i] < 0) {
                throw new CheatException("cheat '" + code + "': '" + code.charAt(i)
                        + "' is not a Game Genie letter (" + LETTERS + ")");
            }
        }
        final int address = 0x8000 | ((n[3] & 7) << 12) | ((n[5] & 7) << 8) | ((n[4] & 8) << 8)
                | ((n[2] & 7) << 4) | ((n[1] & 8) << 4) | (n[4] & 7) | (n[3] & 8);
        final int last = len == 6 ? n[5] : n[7];
        final int value = ((n[1] & 7) << 4) | ((n[0] & 8) << 4) | (n[0] & 7) | (last & 8);
        final int compare = len == 6 ? Cheat.NO_COMPARE
                : ((n[7] & 7) << 4) | ((n[6] & 8) << 4) | (n[6] & 7) | (n[5] & 8);
        return new Cheat(address, value, compare, code.toUpperCase(java.util.Locale.ROOT));
    }
}
