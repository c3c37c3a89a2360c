package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import org.junit.jupiter.api.Test;

/** The FDS wavetable unit driven by hand, against values computed from NESdev's "FDS audio" formulas. */
class FdsAudioTest {
    private static FdsAudio chip() {
        FdsAudio a = new FdsAudio();
        a.power();
        return a;
    }

    /** A table of {@code high} at position 0 and {@code low} elsewhere, then the table locked. */
    private static void table(FdsAudio a, int high, int low) {
        a.write(0x4089, 0x80);
        for (int i = 0; i < 64; i++) {
            a.write(0x4040 + i, i == 0 ? high : low);
        }
        a.write(0x4089, 0x00);
    }

    private static void clock(FdsAudio a, int cycles) {
        for (int i = 0; i < cycles; i++) {
            a.clock();
        }
    }

    @Test
    void fullScaleIsTwoPointFourPulsesAndTheMasterVolumeDividesIt() {
        int[] expected = new int[4];
        int[] sixtieths = {60, 40, 30, 24}; // 2/2, 2/3, 2/4, 2/5
        for (int master = 0; master < 4; master++) {
            FdsAudio a = chip();
            table(a, 63, 63);
            a.write(0x4089, master);
            a.write(0x4080, 0x80 | 32);
            a.write(0x4083, 0x00); // run the wave (pitch 0: the position stays at 0)
            clock(a, 16);
            expected[master] = (int) ((long) 63 * 32 * sixtieths[master] * (ExpansionAudio.APU_PULSE_FULL * 24 / 10) / (63 * 32 * 60));
            assertEquals(expected[master], a.sample(), "master volume " + master);
        }
        assertEquals(ExpansionAudio.APU_PULSE_FULL * 2.4, expected[0], 1.0);
        assertEquals(expected[0] * 2 / 3.0, expected[1], 1.0);
        assertEquals(expected[0] / 2.0, expected[2], 1.0);
        assertEquals(expected[0] * 2 / 5.0, expected[3], 1.0);
    }

    @Test
    void gainAboveThirtyTwoIsClampedAtTheOutput() {
        FdsAudio a = chip();
        table(a, 63, 63);
        a.write(0x4080, 0x80 | 63);
        a.write(0x4083, 0x00);
        clock(a, 16);
        FdsAudio b = chip();
        table(b, 63, 63);
        b.write(0x4080, 0x80 | 32);
        b.write(0x4083, 0x00);
        clock(b, 16);
        assertEquals(b.sample(), a.sample());
        assertEquals(0x40 | 63, a.read(0x4090), "the gain itself reads back unclamped");
    }

    @Test
    void oneWavePeriodTakesSixtyFourStepsOfFourThousandNinetySixOverThePitch() {
        // Step rate n * p / 16 / 2^12: at p = 1024 a step every 4 ticks = 64 cycles, a period 4096.
        FdsAudio a = chip();
        table(a, 63, 0);
        a.write(0x4080, 0x80 | 32);
        a.write(0x4082, 0x00);
        a.write(0x4083, 0x04); // pitch $400, wave running
        int highs = 0;
        boolean was = false;
        java.util.List<Integer> rises = new java.util.ArrayList<>();
        for (int c = 1; c <= 3 * 4096 + 100; c++) {
            a.clock();
            boolean high = a.sample() > 0;
            if (high) {
                highs++;
            }
            if (high && !was) {
                rises.add(c);
            }
            was = high;
        }
        assertEquals(4, rises.size(), "rises " + rises);
        // The first rise is the first tick's latch; from the second on, whole periods.
        for (int i = 2; i < rises.size(); i++) {
            assertEquals(4096, rises.get(i) - rises.get(i - 1), "cycles per 64-step period at pitch $400");
        }
        highs -= 48; // the first period's position 0 shows from the first tick (cycle 16) to cycle 64
        assertEquals(3 * 64, highs, "position 0 lasts one step (64 cycles) per period");
    }

    @Test
    void volumeEnvelopeStepsEveryEightTimesSpeedPlusOneTimesTheMultiplier() {
        FdsAudio a = chip();
        a.write(0x408A, 2);
        a.write(0x4080, 0x80 | 10); // gain 10
        a.write(0x4080, 0x40 | 3); // envelope up, speed 3: a step every 8 * 4 * 2 = 64 cycles
        clock(a, 63);
        assertEquals(0x40 | 10, a.read(0x4090));
        a.clock();
        assertEquals(0x40 | 11, a.read(0x4090));
        clock(a, 64 * 30);
        assertEquals(0x40 | 32, a.read(0x4090), "an envelope does not raise the gain past 32");
        a.write(0x4080, 0x00 | 0); // down, speed 0: every 16 cycles
        clock(a, 16 * 5);
        assertEquals(0x40 | 27, a.read(0x4090));
        a.write(0x4083, 0x40); // envelopes stopped
        clock(a, 16 * 5);
        assertEquals(0x40 | 27, a.read(0x4090));
    }

    @Test
    void modulatedPitchFollowsNesdevsFormula() {
        // Worked by hand from the formula (counter * gain, >> 4 with the -1/+2 bias when bits
        // were dropped and bit 7 is clear, wrap to -64..191, * pitch, >> 6 rounded).
        assertEquals(1024, FdsAudio.modulatedPitch(1024, 0, 32));
        // 1 * 1 = 1 -> 0 +2 = 2 -> 2048 -> 32
        assertEquals(1024 + 32, FdsAudio.modulatedPitch(1024, 1, 1));
        // -1 * 1 = -1 -> -1 (bit 7 set: no bias) -> -1024 -> -16
        assertEquals(1024 - 16, FdsAudio.modulatedPitch(1024, -1, 1));
        // 16 * 1 = 16 -> 1 (no bits dropped) -> 1000 -> 15.625 -> 15, remainder 40 rounds up: 16
        assertEquals(1000 + 16, FdsAudio.modulatedPitch(1000, 16, 1));
        // 63 * 63 = 3969 -> 248 (bit 7 set: no bias) -> wraps to -8 -> -800 -> -12.5: floor -13, remainder 32 rounds up: -12
        assertEquals(100 - 12, FdsAudio.modulatedPitch(100, 63, 63));
        // -64 * 32 = -2048 -> -128 -> wraps to 128 -> 12800 -> 200
        assertEquals(100 + 200, FdsAudio.modulatedPitch(100, -64, 32));
    }

    @Test
    void theModulationTableStepsTheCounterOncePerPositionAndEntryFourResetsIt() {
        FdsAudio a = chip();
        a.write(0x4087, 0x80); // halted: the table is writable
        int[] entries = {1, 1, 3, 4, 7, 5, 6, 2};
        for (int i = 0; i < 32; i++) {
            a.write(0x4088, entries[i % entries.length]);
        }
        a.write(0x4085, 0);
        a.write(0x4086, 0x00);
        a.write(0x4087, 0x08); // pitch $800: a position every two ticks (32 cycles), each entry used twice
        // +1 +1 +1 +1 +4 +4 reset reset -1 -1 -4 -4 -2 -2 +2 +2
        int[] counters = {1, 2, 3, 4, 8, 12, 0, 0, -1, -2, -6, -10, -12, -14, -12, -10};
        for (int k = 0; k < counters.length; k++) {
            clock(a, 32);
            assertEquals(counters[k], field(a, "audio.modCounter"), "position " + (k + 1));
        }
        // The wave's pitch in effect is NESdev's formula of that counter: one tick moves the
        // wave accumulator by it.
        a.write(0x4084, 0x80 | 20);
        a.write(0x4082, 0x00);
        a.write(0x4083, 0x04);
        a.write(0x4087, 0x88); // the modulator's table held: the counter stays at -10
        int before = field(a, "audio.waveAccumulator");
        clock(a, 16);
        assertEquals(FdsAudio.modulatedPitch(0x400, -10, 20), field(a, "audio.waveAccumulator") - before);
    }

    /** A scalar field of the unit's description. */
    private static int field(FdsAudio a, String name) {
        for (StateEntry e : Describer.describe(a)) {
            if (e.path().endsWith(name)) {
                return (int) e.value();
            }
        }
        throw new AssertionError("no " + name);
    }

    @Test
    void theWavetableIsWritableOnlyWhileBitSevenOfFortyEightyNineIsSet() {
        FdsAudio a = chip();
        a.write(0x4040, 33);
        a.write(0x4089, 0x80);
        assertEquals(0x40, a.read(0x4040), "a write while locked is lost");
        a.write(0x4040, 33);
        assertEquals(0x40 | 33, a.read(0x4040));
    }

    @Test
    void quietSpansSkipToTheSameStateAsSteppingCycleByCycle() {
        FdsAudio stepped = chip();
        FdsAudio skipped = chip();
        for (FdsAudio a : new FdsAudio[] {stepped, skipped}) {
            table(a, 50, 10);
            a.write(0x408A, 1);
            a.write(0x4080, 0x45);
            a.write(0x4084, 0x42);
            a.write(0x4082, 0x37);
            a.write(0x4083, 0x02);
            a.write(0x4087, 0x80);
            for (int i = 0; i < 32; i++) {
                a.write(0x4088, i * 5);
            }
            a.write(0x4086, 0x55);
            a.write(0x4087, 0x01);
        }
        for (int n = 0; n < 20000; ) {
            int span = skipped.quietSpan();
            int out = skipped.sample();
            if (span > 0) {
                skipped.skip(span);
                for (int i = 0; i < span; i++) {
                    stepped.clock();
                    assertEquals(out, stepped.sample(), "the output stays through a quiet span");
                }
                n += span;
            }
            skipped.clock();
            stepped.clock();
            n++;
            assertEquals(text(stepped), text(skipped), "cycle " + n);
        }
    }

    private static String text(FdsAudio a) {
        StringBuilder b = new StringBuilder();
        for (StateEntry e : Describer.describe(a)) {
            b.append(e.path()).append('=').append(e.isArray() ? java.util.Arrays.toString(e.ints()) : e.scalarText()).append(' ');
        }
        return b.toString();
    }
}
