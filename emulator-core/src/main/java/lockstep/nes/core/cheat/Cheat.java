package lockstep.nes.core.cheat;

import java.util.Locale;

/**
 * One cheat: CPU reads of {@code address} see {@code value} instead of what the bus holds, or,
 * with a compare value, only while the bus holds {@code compare} ({@link #NO_COMPARE}: always).
 * {@code code} is how the user wrote it (a Game Genie code, upper case, or {@code ADDR:VALUE[:COMPARE]}
 * in hex).
 */
public record Cheat(int address, int value, int compare, String code) {
    /** No compare value: the substitution is unconditional. */
    public static final int NO_COMPARE = -1;

    public Cheat {
        if (address < 0 || address > 0xFFFF || value < 0 || value > 0xFF || compare < NO_COMPARE || compare > 0xFF) {
            throw new IllegalArgumentException("cheat out of range: " + code);
        }
    }

    /**
     * Parses a Game Genie code (6 or 8 letters) or a raw code {@code ADDR:VALUE[:COMPARE]} (hex,
     * an optional {@code $} before each part: {@code 0075:09}, {@code $C123:A9:85}). Fails with one
     * line naming the code.
     */
    public static Cheat parse(String text) throws CheatException {
        final String code = text.strip();
        if (code.isEmpty()) {
            throw new CheatException("cheat '': empty code (a Game Genie code or ADDR:VALUE[:COMPARE])");
        }
        if (code.indexOf(':') < 0) {
            if (!GameGenie.looksLike(code) && code.length() != 6 && code.length() != 8) {
                throw new CheatException("cheat '" + code + "': neither a Game Genie code (6 or 8 letters of "
                        + "APZLGITYEOXUKSVN) nor ADDR:VALUE[:COMPARE] in hex");
            }
            return GameGenie.decode(code);
        }
        final String[] parts = code.split(":", -1);
        if (parts.length > 3) {
            throw new CheatException("cheat '" + code + "': a raw code is ADDR:VALUE[:COMPARE], not " + parts.length + " parts");
        }
        final int address = hex(code, parts[0], "address", 0xFFFF);
        final int value = hex(code, parts[1], "value", 0xFF);
        final int compare = parts.length == 3 ? hex(code, parts[2], "compare value", 0xFF) : NO_COMPARE;
        return new Cheat(address, value, compare, code.toUpperCase(Locale.ROOT));
    }

    private static int hex(String code, String part, String what, int max) throws CheatException {
        final String digits = part.startsWith("$") ? part.substring(1) : part;
        final int width = max == 0xFFFF ? 4 : 2;
        if (digits.isEmpty() || digits.length() > width) {
            throw new CheatException("cheat '" + code + "': the " + what + " must be 1 to " + width + " hex digits, not '"
                    + part + "'");
        }
        try {
            return Integer.parseInt(digits, 16);
        } catch (NumberFormatException e) {
            throw new CheatException("cheat '" + code + "': the " + what + " '" + part + "' is not hex");
        }
    }

    /** The cheat that substitutes {@code value} at {@code address} ({@code compare}: see the class), written as a raw code. */
    public static Cheat of(int address, int value, int compare) {
        return new Cheat(address, value, compare, compare == NO_COMPARE
                ? String.format(Locale.ROOT, "%04X:%02X", address, value)
                : String.format(Locale.ROOT, "%04X:%02X:%02X", address, value, compare));
    }

    /** The cheat as {@code ADDR:VALUE[:COMPARE]} in upper-case hex, what it does whatever the code's form. */
    public String raw() {
        return of(address, value, compare).code();
    }
}
