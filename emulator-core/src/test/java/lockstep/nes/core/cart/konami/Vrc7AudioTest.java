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
        samples(a, 1);
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
}
