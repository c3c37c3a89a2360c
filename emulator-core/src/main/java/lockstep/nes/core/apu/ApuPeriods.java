package lockstep.nes.core.apu;

import lockstep.nes.ppu.Region;

/**
 * The APU's period tables, which differ between the 2A03 (NTSC, and the Dendy, whose frame
 * counter runs the NTSC sequence at its own CPU clock: 59 Hz) and the 2A07 (PAL): the noise and
 * DMC timer periods and the frame counter's step positions, all in CPU cycles (NESdev "APU
 * Noise", "APU DMC", "APU Frame Counter").
 */
final class ApuPeriods {
    private static final int[] NOISE_NTSC = {4, 8, 16, 32, 64, 96, 128, 160, 202, 254, 380, 508, 762, 1016, 2034, 4068};
    private static final int[] NOISE_PAL = {4, 8, 14, 30, 60, 88, 118, 148, 188, 236, 354, 472, 708, 944, 1890, 3778};

    private static final int[] DMC_NTSC = {428, 380, 340, 320, 286, 254, 226, 214, 190, 160, 142, 128, 106, 84, 72, 54};
    private static final int[] DMC_PAL = {398, 354, 316, 298, 276, 236, 210, 198, 176, 148, 132, 118, 98, 78, 66, 50};

    /**
     * Frame counter step positions after the (delayed) $4017 write, 4-step then 5-step mode: the
     * APU-cycle positions (NTSC 3728.5, 7456.5, 11185.5, 14914, 14914.5, 0 and 18640.5; PAL
     * 4156.5, 8313.5, 12469.5, 16626, 16626.5, 0 and 20782.5) in CPU cycles.
     */
    private static final int[][] FRAME_NTSC = {
        {7457, 14913, 22371, 29828, 29829, 29830},
        {7457, 14913, 22371, 29829, 37281, 37282},
    };
    private static final int[][] FRAME_PAL = {
        {8313, 16627, 24939, 33252, 33253, 33254},
        {8313, 16627, 24939, 33253, 41565, 41566},
    };

    private ApuPeriods() {
    }

    /** The noise timer's periods by $400E's low nibble. */
    static int[] noise(Region region) {
        return region.palApu ? NOISE_PAL : NOISE_NTSC;
    }

    /** The DMC timer's periods by $4010's low nibble. */
    static int[] dmc(Region region) {
        return region.palApu ? DMC_PAL : DMC_NTSC;
    }

    /** The frame counter's step positions by mode. */
    static int[][] frameSteps(Region region) {
        return region.palApu ? FRAME_PAL : FRAME_NTSC;
    }
}
