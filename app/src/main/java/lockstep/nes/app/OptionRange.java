package lockstep.nes.app;

/**
 * The one wording of an option value out of its range, as snapshot fields and {@code --inject}
 * values are refused: "--scale must be 1..8, not 9", "--frames must be at least 1, not 0".
 */
final class OptionRange {
    private OptionRange() {
    }

    static String between(String option, long min, long max, long value) {
        return option + " must be " + min + ".." + max + ", not " + value;
    }

    static String atLeast(String option, long min, long value) {
        return option + " must be at least " + min + ", not " + value;
    }

    /** As {@link #between(String, long, long, long)} for a number with a fraction ("--min-seconds must be 0..86400, not 1e308"). */
    static String between(String option, double min, double max, double value) {
        return option + " must be " + number(min) + ".." + number(max) + ", not " + number(value);
    }

    /** True when {@code value} is a number in {@code [min, max]} (NaN is not). */
    static boolean within(double value, double min, double max) {
        return value >= min && value <= max;
    }

    /** A number as a person writes it: 2, 0.5, 1e308. */
    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        String s = Double.toString(value);
        return s.replace(".0E", "e").replace("E", "e");
    }
}
