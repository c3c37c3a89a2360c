package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.ppu.Region;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * The APU's region tables (NESdev "APU Noise", "APU DMC", "APU Frame Counter"): the 2A07's on
 * PAL, the 2A03's on NTSC and Dendy, whose frame counter runs the NTSC sequence (59 Hz at its
 * clock).
 */
class ApuPeriodsTest {
    @Test
    void theFrameIrqComesAtTheEndOfTheRegionsFourStepSequence() {
        // Power acts as a $4017 write taking effect on the 3rd cycle; the flag rises at the last
        // step: APU cycle 14914 (NTSC) or 16626 (PAL), in CPU cycles 29828 or 33252.
        assertEquals(3 + 29828, FrameCounterTest.cyclesUntilIrq(new Apu(TestCarts.nopConsole().dma(), Region.NTSC), 50_000));
        assertEquals(3 + 33252, FrameCounterTest.cyclesUntilIrq(new Apu(TestCarts.nopConsole().dma(), Region.PAL), 50_000));
        assertEquals(3 + 29828, FrameCounterTest.cyclesUntilIrq(new Apu(TestCarts.nopConsole().dma(), Region.DENDY), 50_000));
    }

    @Test
    void noiseAndDmcPeriods() {
        assertArrayEquals(new int[] {4, 8, 14, 30, 60, 88, 118, 148, 188, 236, 354, 472, 708, 944, 1890, 3778},
                ApuPeriods.noise(Region.PAL));
        assertArrayEquals(new int[] {398, 354, 316, 298, 276, 236, 210, 198, 176, 148, 132, 118, 98, 78, 66, 50},
                ApuPeriods.dmc(Region.PAL));
        assertEquals(4068, ApuPeriods.noise(Region.NTSC)[15]);
        assertEquals(428, ApuPeriods.dmc(Region.NTSC)[0]);
        assertArrayEquals(ApuPeriods.noise(Region.NTSC), ApuPeriods.noise(Region.DENDY));
        assertArrayEquals(ApuPeriods.dmc(Region.NTSC), ApuPeriods.dmc(Region.DENDY));
    }

    @Test
    void theNoiseTimerRunsThePeriodItsRegionGives() {
        for (Region region : Region.values()) {
            Noise noise = new Noise(region);
            noise.power();
            noise.write(2, 0x0F); // the longest period
            int expected = ApuPeriods.noise(region)[15];
            assertEquals(expected - 1, period(noise), region.toString());
        }
    }

    /** The noise channel's timer period as it describes it. */
    private static int period(Noise noise) {
        int[] out = new int[1];
        noise.state(new StateVisitor() {
            @Override public boolean isReader() { return false; }
            @Override public void beginSection(String name) { }
            @Override public void endSection() { }
            @Override public boolean bool(String name, boolean value) { return value; }
            @Override public int u8(String name, int value) { return value; }
            @Override public int i32(String name, int value) { return value; }
            @Override public long i64(String name, long value) { return value; }
            @Override public void bytes(String name, byte[] array) { }
            @Override public void ints(String name, int[] array) { }

            @Override
            public int u16(String name, int value) {
                if (name.equals("period")) {
                    out[0] = value;
                }
                return value;
            }
        });
        return out[0];
    }
}
