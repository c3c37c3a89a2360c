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
}
