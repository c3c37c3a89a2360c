package lockstep.nes.core.apu;

/**
 * The 2A03's non-linear DAC mix, as two lookup tables (NESdev "APU Mixer"):
 * pulse = 95.52 / (8128 / (p1 + p2) + 100), tnd = 163.67 / (24329 / (3t + 2n + d) + 100).
 * Values are integers where 1.0 = {@link #FULL_SCALE}. The tables are computed once with
 * strict IEEE double arithmetic (the same on every JVM) and rounded.
 */
final class Mixer {
    static final int FULL_SCALE = 32000;
    private static final int[] PULSE = new int[31];
    private static final int[] TND = new int[203];

    static {
        for (int n = 1; n < PULSE.length; n++) {
            PULSE[n] = (int) Math.round(FULL_SCALE * 95.52 / (8128.0 / n + 100.0));
        }
        for (int n = 1; n < TND.length; n++) {
            TND[n] = (int) Math.round(FULL_SCALE * 163.67 / (24329.0 / n + 100.0));
        }
    }

    private Mixer() {
    }

    /** The pulse channels' part of the mix for the sum {@code p} (0-30) of their levels. */
    static int pulse(int p) {
        return PULSE[p];
    }

    /** The mixed output for 4-bit pulse/triangle/noise levels and the 7-bit DMC level. */
    static int mix(int pulse1, int pulse2, int triangle, int noise, int dmc) {
        return PULSE[pulse1 + pulse2] + TND[3 * triangle + 2 * noise + dmc];
    }
}
