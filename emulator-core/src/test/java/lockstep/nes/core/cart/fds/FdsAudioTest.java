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

    /** Cycles after which the output filter has settled on a constant DAC level (400 ticks). */
    private static final int SETTLED = 16 * 400;

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
            clock(a, SETTLED);
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
        clock(a, SETTLED);
        FdsAudio b = chip();
        table(b, 63, 63);
        b.write(0x4080, 0x80 | 32);
        b.write(0x4083, 0x00);
        clock(b, SETTLED);
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
            boolean high = a.dac() > 0;
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
        a.write(0x4083, 0x00); // the wave running: envelopes at their usual rate
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
        a.write(0x4083, 0x00); // the wave running (its halt also stops the modulator)
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

    @Test
    void haltingTheWaveRunsTheEnvelopesFourTimesFaster() {
        // $408A = 2, speed 3: 8 x 4 x 2 = 64 cycles a step with the wave running, 16 while halted.
        FdsAudio a = chip();
        a.write(0x408A, 2);
        a.write(0x4083, 0x80);
        a.write(0x4080, 0x80 | 10);
        a.write(0x4080, 0x40 | 3);
        clock(a, 15);
        assertEquals(0x40 | 10, a.read(0x4090));
        a.clock();
        assertEquals(0x40 | 11, a.read(0x4090));
        a.write(0x4083, 0x00); // the wave running: back to 64 cycles, the timer restarted
        clock(a, 63);
        assertEquals(0x40 | 11, a.read(0x4090));
        a.clock();
        assertEquals(0x40 | 12, a.read(0x4090));
    }

    @Test
    void bitSixOfFortyEightyThreeStopsTheEnvelopesAndResetsTheirTimers() {
        FdsAudio a = chip();
        a.write(0x4083, 0x00);
        a.write(0x408A, 2);
        a.write(0x4080, 0x80 | 10);
        a.write(0x4080, 0x40 | 3); // a step every 64 cycles
        clock(a, 40);
        a.write(0x4083, 0x40);
        clock(a, 200);
        assertEquals(0x40 | 10, a.read(0x4090), "stopped");
        a.write(0x4083, 0x00);
        clock(a, 63); // a whole period again from the write, not the 24 cycles left before
        assertEquals(0x40 | 10, a.read(0x4090));
        a.clock();
        assertEquals(0x40 | 11, a.read(0x4090));
    }

    @Test
    void haltingTheWaveStopsTheModulatorsAccumulator() {
        FdsAudio a = chip();
        a.write(0x4083, 0x00);
        a.write(0x4086, 0x00);
        a.write(0x4087, 0x04); // mod pitch $400: a quarter position a tick
        clock(a, 16 * 3);
        assertEquals(3 * 0x400, field(a, "audio.modAccumulator"));
        a.write(0x4083, 0x80);
        clock(a, 16 * 10);
        assertEquals(3 * 0x400, field(a, "audio.modAccumulator"), "stands while $4083 bit 7 is set");
        a.write(0x4083, 0x00);
        clock(a, 16);
        assertEquals(4 * 0x400, field(a, "audio.modAccumulator"));
    }

    @Test
    void bitSixOfFortyEightySevenStepsTheModulationTableEveryTick() {
        FdsAudio a = chip();
        a.write(0x4083, 0x00);
        a.write(0x4087, 0x80);
        for (int i = 0; i < 32; i++) {
            a.write(0x4088, 1); // +1 everywhere
        }
        a.write(0x4085, 0);
        a.write(0x4086, 0x00);
        a.write(0x4087, 0x40 | 0x02); // forced carry, pitch $200: bits 0-11 gain $200 a tick
        for (int t = 1; t <= 12; t++) {
            clock(a, 16);
            // The carry out of bit 11 is forced: one position a tick whatever bits 0-11 hold.
            assertEquals(t & 63, field(a, "audio.modAccumulator") >> 12, "position after tick " + t);
            assertEquals((t * 0x200) & 0xFFF, field(a, "audio.modAccumulator") & 0xFFF, "bits 0-11 after tick " + t);
            assertEquals(t, field(a, "audio.modCounter"), "one +1 entry applied per position");
        }
        a.write(0x4087, 0x40); // forced carry with pitch 0 still steps
        clock(a, 16);
        assertEquals(13, field(a, "audio.modCounter"));
        a.write(0x4087, 0x00); // pitch 0, no force: the modulator stands
        clock(a, 16 * 4);
        assertEquals(13, field(a, "audio.modCounter"));
    }

    @Test
    void modulationTableWritesAppendAtBitsThirteenToSeventeenOnlyWhileHalted() {
        FdsAudio a = chip();
        a.write(0x4083, 0x00);
        a.write(0x4087, 0x80);
        for (int i = 0; i < 3; i++) {
            a.write(0x4088, i + 1);
        }
        assertEquals(3 << 13, field(a, "audio.modAccumulator"), "each write advances one entry (two positions)");
        int[] table = ints(a, "audio.modTable");
        assertEquals(1, table[0]);
        assertEquals(2, table[1]);
        assertEquals(3, table[2]);
        for (int i = 3; i < 32; i++) {
            a.write(0x4088, 0x0F); // only bits 0-2 are kept
        }
        assertEquals(0, field(a, "audio.modAccumulator"), "32 writes wrap to the first entry");
        assertEquals(7, ints(a, "audio.modTable")[31]);
        a.write(0x4088, 5);
        assertEquals(5, ints(a, "audio.modTable")[0], "the 33rd write replaces the first entry");
        a.write(0x4087, 0x00);
        a.write(0x4088, 6);
        assertEquals(2, ints(a, "audio.modTable")[1], "ignored while the modulator runs");
    }

    @Test
    void theOutputLowPassFollowsAOnePoleRcFilterAtTwoKilohertz() {
        // NESdev: a first-order RC low-pass, cutoff about 2 kHz. Sampled every 16 CPU cycles
        // (1,789,773 Hz), a step of height x reads x (1 - e^(-2 pi 2000 16 / 1789773))^n short of
        // x after n ticks.
        FdsAudio a = chip();
        table(a, 63, 63);
        a.write(0x4080, 0x80 | 32);
        a.write(0x4083, 0x00);
        final double k = 1 - Math.exp(-2 * Math.PI * 2000 * 16 / 1_789_773.0);
        assertEquals(Math.round(65536 * k), FdsAudio.LOW_PASS_K);
        assertEquals(0, a.sample());
        for (int n = 1; n <= 60; n++) {
            clock(a, 16);
            double expected = FdsAudio.FULL_LEVEL * (1 - Math.pow(1 - k, n));
            assertEquals(expected, a.sample(), 1.0, "after " + n + " ticks");
        }
        // The time constant RC = 1 / (2 pi 2000) s = 142.4 CPU cycles: 63% of the step by then.
        FdsAudio b = chip();
        table(b, 63, 63);
        b.write(0x4080, 0x80 | 32);
        b.write(0x4083, 0x00);
        clock(b, 16 * 9); // 144 cycles
        assertEquals(0.632, b.sample() / (double) FdsAudio.FULL_LEVEL, 0.01);
        // And back down to exactly 0 when the DAC drops.
        b.write(0x4089, 0x80);
        b.write(0x4040, 0);
        b.write(0x4089, 0x00);
        clock(b, SETTLED);
        assertEquals(0, b.sample());
    }

    private static int[] ints(FdsAudio a, String name) {
        for (StateEntry e : Describer.describe(a)) {
            if (e.path().endsWith(name)) {
                return e.ints();
            }
        }
        throw new AssertionError("no " + name);
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
