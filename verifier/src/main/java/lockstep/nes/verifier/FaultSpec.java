package lockstep.nes.verifier;

import java.util.Locale;

/**
 * One injected fault, parsed from the {@code --inject} syntax:
 * <ul>
 *   <li>{@code ram-bitflip@CYCLE:ENGINE[:ADDR:BIT]} flips a bit of CPU RAM</li>
 *   <li>{@code vram-bitflip@CYCLE:ENGINE[:ADDR:BIT]} flips a bit of nametable RAM (CIRAM)</li>
 *   <li>{@code reg@CYCLE:ENGINE:FIELD=VALUE} sets any described field, e.g. {@code cpu.a=$42}</li>
 *   <li>{@code skip-cycle@CYCLE:ENGINE} makes that engine skip one cycle</li>
 *   <li>{@code stall@CYCLE:ENGINE:MILLIS} stalls that engine's thread (threads/processes modes)</li>
 * </ul>
 * ENGINE is {@code A} or {@code B} (or 0/1). Numbers are decimal, or hex with {@code $}/{@code 0x}.
 * Without ADDR:BIT a bit-flip picks them from the cycle number (deterministically).
 */
public record FaultSpec(Kind kind, long cycle, int engine, String field, int address, int bit, long value) {

    public enum Kind {
        RAM_BITFLIP("ram-bitflip"),
        VRAM_BITFLIP("vram-bitflip"),
        REG("reg"),
        SKIP_CYCLE("skip-cycle"),
        STALL("stall");

        final String syntax;

        Kind(String syntax) {
            this.syntax = syntax;
        }
    }

    /** Parses one spec; throws IllegalArgumentException with a one-line reason. */
    public static FaultSpec parse(String spec) {
        String s = spec.trim();
        int at = s.indexOf('@');
        if (at < 0) {
            throw bad(spec, "expected KIND@CYCLE:ENGINE...");
        }
        String kindName = s.substring(0, at).toLowerCase(Locale.ROOT);
        Kind kind = null;
        for (Kind k : Kind.values()) {
            if (k.syntax.equals(kindName)) {
                kind = k;
            }
        }
        if (kind == null) {
            throw bad(spec, "unknown fault '" + kindName
                    + "' (ram-bitflip, vram-bitflip, reg, skip-cycle, stall)");
        }
        String[] parts = s.substring(at + 1).split(":", -1);
        if (parts.length < 2) {
            throw bad(spec, "expected CYCLE:ENGINE after '@'");
        }
        long cycle = number(spec, parts[0], "CYCLE");
        if (cycle < 0) {
            throw bad(spec, "CYCLE must be at least 0, not " + cycle);
        }
        int engine = engine(spec, parts[1]);
        switch (kind) {
            case RAM_BITFLIP, VRAM_BITFLIP -> {
                int size = kind == Kind.RAM_BITFLIP ? 2048 : 2048;
                if (parts.length == 2) {
                    return new FaultSpec(kind, cycle, engine, null, (int) (cycle % size), (int) (cycle % 8), 0);
                }
                if (parts.length != 4) {
                    throw bad(spec, "expected " + kind.syntax + "@CYCLE:ENGINE[:ADDR:BIT]");
                }
                long addr = number(spec, parts[2], "ADDR");
                long bit = number(spec, parts[3], "BIT");
                if (addr < 0 || addr >= size) {
                    throw bad(spec, "ADDR must be 0..$" + Integer.toHexString(size - 1).toUpperCase(Locale.ROOT) + ", not " + parts[2].trim());
                }
                if (bit < 0 || bit > 7) {
                    throw bad(spec, "BIT must be 0..7, not " + bit);
                }
                return new FaultSpec(kind, cycle, engine, null, (int) addr, (int) bit, 0);
            }
            case REG -> {
                if (parts.length != 3 || !parts[2].contains("=")) {
                    throw bad(spec, "expected reg@CYCLE:ENGINE:component.field=VALUE");
                }
                String[] kv = parts[2].split("=", 2);
                String field = kv[0].trim();
                if (!field.contains(".")) {
                    throw bad(spec, "field must be component.field, e.g. cpu.a");
                }
                return new FaultSpec(kind, cycle, engine, field, 0, 0, number(spec, kv[1], "VALUE"));
            }
            case SKIP_CYCLE -> {
                if (parts.length != 2) {
                    throw bad(spec, "expected skip-cycle@CYCLE:ENGINE");
                }
                return new FaultSpec(kind, cycle, engine, null, 0, 0, 0);
            }
            default -> {
                if (parts.length != 3) {
                    throw bad(spec, "expected stall@CYCLE:ENGINE:MILLIS");
                }
                long ms = number(spec, parts[2], "MILLIS");
                if (ms < 0 || ms > 600_000) {
                    throw bad(spec, "MILLIS must be 0..600000, not " + ms);
                }
                return new FaultSpec(kind, cycle, engine, null, 0, 0, ms);
            }
        }
    }

    /** The engine letter, A or B. */
    public String engineName() {
        return engine == 0 ? "A" : "B";
    }

    @Override
    public String toString() {
        String base = kind.syntax + "@" + cycle + ":" + engineName();
        return switch (kind) {
            case RAM_BITFLIP, VRAM_BITFLIP -> base + ":$" + String.format("%04X", address) + ":" + bit;
            case REG -> base + ":" + field + "=" + (value >= 0 ? "$" + Long.toHexString(value).toUpperCase(Locale.ROOT) : value);
            case STALL -> base + ":" + value;
            case SKIP_CYCLE -> base;
        };
    }

    private static int engine(String spec, String s) {
        return switch (s.trim().toUpperCase(Locale.ROOT)) {
            case "A", "0" -> 0;
            case "B", "1" -> 1;
            default -> throw bad(spec, "ENGINE must be A or B, not '" + s + "'");
        };
    }

    static long number(String spec, String s, String what) {
        String t = s.trim();
        try {
            if (t.startsWith("$")) {
                return Long.parseLong(t.substring(1), 16);
            }
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseLong(t.substring(2), 16);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            // Digits alone that do not fit in 64 bits are a number out of range, not a typo.
            boolean hex = t.startsWith("$") || t.startsWith("0x") || t.startsWith("0X");
            String digits = t.substring(t.startsWith("$") || t.startsWith("-") || t.startsWith("+") ? 1 : hex ? 2 : 0);
            if (!digits.isEmpty() && digits.chars().allMatch(c -> hex ? Character.digit(c, 16) >= 0 : c >= '0' && c <= '9')) {
                throw bad(spec, what + " '" + t + "' is out of range (more than 64 bits)");
            }
            throw bad(spec, what + " '" + s + "' is not a number");
        }
    }

    private static IllegalArgumentException bad(String spec, String why) {
        return new IllegalArgumentException("bad --inject '" + spec + "': " + why);
    }
}
