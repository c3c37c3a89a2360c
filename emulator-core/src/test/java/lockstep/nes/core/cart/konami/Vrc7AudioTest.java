package lockstep.nes.core.cart.konami;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The VRC7's OPLL driven by hand, one CPU cycle a step. */
class Vrc7AudioTest {
    private static void write(Vrc7Audio a, int reg, int value) {
        a.writeSelect(reg);
        a.writeData(value);
    }

    private static void samples(Vrc7Audio a, int n) {
        for (int i = 0; i < n * Vrc7Audio.SAMPLE_CYCLES; i++) {
            a.step();
        }
    }

    private static Vrc7Audio keyed(int[] custom, int volume) {
        Vrc7Audio a = new Vrc7Audio();
        a.power();
        for (int i = 0; i < 8; i++) {
            write(a, i, custom[i]);
        }
        write(a, 0x30, volume);
        write(a, 0x10, 0x20);
        write(a, 0x20, 0x10 | 4 << 1 | 1);
        return a;
    }

    @Test
    void theTablesAreTheLogSineAndExponential() {
        // Quarter-wave peak: -log2(sin(255.5 pi / 512)) is about 0; a quarter-wave start is large.
        assertEquals(0, Vrc7Audio.LOG_SIN[255]);
        assertEquals(2137, Vrc7Audio.LOG_SIN[0]);
        assertEquals(2048, Vrc7Audio.EXP[0]);
        assertEquals(1027, Vrc7Audio.EXP[255]);
        // Full level at the peak: 4096; 16 log units (0.375 dB) per attenuation step; 6 dB halves it.
        assertEquals(4096, Vrc7Audio.operator(256, 0, false));
        assertEquals(2048, Vrc7Audio.operator(256, 16, false));
        assertEquals(-4096, Vrc7Audio.operator(768, 0, false));
        assertEquals(0, Vrc7Audio.operator(768, 0, true), "half-sine: the negative half is silent");
    }

    @Test
    void aSampleComesEvery36CpuCyclesAndIsHeld() {
        Vrc7Audio a = keyed(new int[] {0x21, 0x21, 20, 0, 0xF0, 0xF0, 0, 0}, 0x02);
        samples(a, 2); // the key-on's damp: ends on the first even sample count (rate 12, block 4)
        int first = a.output();
        assertTrue(first != 0);
        assertEquals(Vrc7Audio.SAMPLE_CYCLES - 1, a.quietSpan());
        for (int i = 0; i < Vrc7Audio.SAMPLE_CYCLES - 1; i++) {
            a.step();
            assertEquals(first, a.output());
        }
        a.step();
        assertTrue(a.output() != first);
    }

    @Test
    void keyOffReleasesAndTheSustainBitSlowsTheRelease() {
        int[] patch = {0x21, 0x21, 63, 0, 0xF0, 0xF0, 0x0F, 0x0F}; // release rate 15
        Vrc7Audio fast = keyed(patch, 0);
        Vrc7Audio slow = keyed(patch, 0);
        samples(fast, 10);
        samples(slow, 10);
        write(fast, 0x20, 4 << 1 | 1);
        write(slow, 0x20, 0x20 | 4 << 1 | 1); // sustain on: release rate 5
        samples(fast, 200);
        samples(slow, 200);
        int fastPeak = 0;
        int slowPeak = 0;
        for (int i = 0; i < 200; i++) {
            samples(fast, 1);
            samples(slow, 1);
            fastPeak = Math.max(fastPeak, Math.abs(fast.output()));
            slowPeak = Math.max(slowPeak, Math.abs(slow.output()));
        }
        // Rate 15 reaches the full attenuation (127 steps, 47.6 dB) within 200 samples: a murmur.
        assertTrue(fastPeak <= Vrc7Audio.FULL_SWING / 2 / 200, "released: " + fastPeak);
        assertTrue(slowPeak > 1000, "rate 5 is still sounding: " + slowPeak);
    }

    /**
     * The damp phase's length from the documented rates: rate 12 plus the key scale's high bits
     * (H = min(15, 12 + K / 4)), the low bits picking the step pattern; at H = 12 a step comes on
     * even sample counts only, the pattern's (count / 2 mod 8)-th; from H = 13 every sample
     * (H = 15: 2 a sample). Returns the attenuation after each sample from {@code env} until the
     * damp ends (at 123 or more, on a sample the rate steps on).
     */
    private static java.util.List<Integer> dampFrom(int env, int counter, int ksr) {
        int[][] patterns = {{0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 1, 1, 0, 1}, {0, 1, 1, 1, 0, 1, 1, 1},
            {0, 1, 1, 1, 1, 1, 1, 1}};
        int high = Math.min(15, 12 + (ksr >> 2));
        int[] pattern = patterns[ksr & 3];
        java.util.List<Integer> out = new java.util.ArrayList<>();
        while (true) {
            counter++;
            boolean stepping = high != 12 || (counter & 1) == 0;
            if (stepping) {
                int step = switch (high) {
                    case 12 -> pattern[(counter >> 1) & 7];
                    case 13 -> pattern[((counter & 0xC) >> 1) | (counter & 1)];
                    case 14 -> pattern[(counter & 0xC) >> 1] + 1;
                    default -> 2;
                };
                env = Math.min(127, env + step);
            }
            out.add(env);
            if (env >= 123 && stepping) {
                return out;
            }
        }
    }

    @Test
    void aKeyOnDampsTheOldSoundAtRate12BeforeTheAttackRestartsThePhases() {
        // A sustained instrument held at full level (attack at once, sustain level 0, no decay),
        // then keyed off and on between two samples: both operators damp from where they are.
        // Block 4: key scale 2 without KSR (H = 12, pattern 2); block 7 with F-number bit 8 and
        // KSR: 15 (H = 15, 2 a sample).
        int[][] cases = {{0x21, 4, 0}, {0x31, 7, 1}};
        for (int[] c : cases) {
            int flags = c[0];
            int block = c[1];
            int fnumHigh = c[2];
            Vrc7Audio a = new Vrc7Audio();
            a.power();
            int[] custom = {flags, flags, 0, 0, 0xF0, 0xF0, 0x00, 0x00};
            for (int i = 0; i < 8; i++) {
                write(a, i, custom[i]);
            }
            write(a, 0x10, 0x40);
            write(a, 0x20, 0x10 | block << 1 | fnumHigh);
            samples(a, 200);
            assertEquals(0, a.envelope(1), "held at full level");
            assertEquals(Vrc7Audio.SUSTAIN, a.envelopeState(1));
            int ksr = (flags & 0x10) != 0 ? block << 1 | fnumHigh : block >> 1;
            java.util.List<Integer> expected = dampFrom(0, a.envelopeCounter(), ksr);
            int phaseBefore = a.phase(1);
            write(a, 0x20, block << 1 | fnumHigh);
            write(a, 0x20, 0x10 | block << 1 | fnumHigh);
            assertEquals(Vrc7Audio.DAMP, a.envelopeState(1));
            assertEquals(Vrc7Audio.DAMP, a.envelopeState(0));
            int inc = ((0x40 | fnumHigh << 8) << block) * 2 >> 1;
            for (int n = 0; n < expected.size() - 1; n++) {
                samples(a, 1);
                assertEquals(Vrc7Audio.DAMP, a.envelopeState(1), "sample " + n + " of the damp");
                assertEquals((int) expected.get(n), a.envelope(1), "attenuation, sample " + n + ": " + expected);
                assertEquals((phaseBefore + (n + 1) * inc) & 0x7FFFF, a.phase(1), "the old phase runs on");
            }
            samples(a, 1);
            // The damp ended on this sample: attack rate 15 goes straight to the decay from 0,
            // and both phases restarted before advancing.
            assertEquals(Vrc7Audio.DECAY, a.envelopeState(1), "after " + expected.size() + " samples");
            assertEquals(0, a.envelope(1));
            assertEquals(inc, a.phase(1));
            assertEquals(inc, a.phase(0));
            assertTrue(expected.size() > (block == 4 ? 150 : 60), "damp of " + expected.size() + " samples");
        }
    }

    @Test
    void aMultiplierOneOperatorSoundsAtNesdevsFrequency() {
        // NESdev "VRC7 audio": f = 49716 x F / 2^(19 - B) Hz, one sample at 49716 Hz, a cycle of
        // 2^19 phase units: F x 2^B units a sample. F = 289, B = 4: 4624 units, 438.3 Hz.
        Vrc7Audio a = keyed(new int[] {0x21, 0x21, 0x3F, 0x00, 0xF0, 0xF0, 0x0F, 0x0F}, 0);
        write(a, 0x10, 289 & 0xFF);
        write(a, 0x20, 0x10 | 4 << 1 | 289 >> 8);
        samples(a, 300);
        int before = a.phase(1);
        samples(a, 1000);
        int perSample = 289 << 4;
        assertEquals((before + 1000 * perSample) & 0x7FFFF, a.phase(1));
        double hz = 49716.0 * perSample / (1 << 19);
        assertEquals(49716.0 * 289 / (1 << (19 - 4)), hz, 1e-9);
    }
}
