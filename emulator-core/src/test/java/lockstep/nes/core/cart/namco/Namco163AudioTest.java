package lockstep.nes.core.cart.namco;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.state.Memory;
import org.junit.jupiter.api.Test;

/** The Namco 163's sound unit driven by hand, one CPU cycle a step. */
class Namco163AudioTest {
    private final Memory ram = new Memory("audioRam", Memory.MAPPER, 128);

    private Namco163Audio chip() {
        Namco163Audio a = new Namco163Audio(ram, 0);
        a.power();
        return a;
    }

    private static void steps(Namco163Audio a, int n) {
        for (int i = 0; i < n; i++) {
            a.step();
        }
    }

    @Test
    void thePhaseIsWrittenBackToTheRamModuloTheLength() {
        Namco163Audio a = chip();
        // Channel 8: frequency $2_8000 (2.5 samples an update), length 8 samples.
        a.write(0x78, 0x00);
        a.write(0x7A, 0x80);
        a.write(0x7C, (256 - 8) | 0x02);
        steps(a, 15);
        assertEquals(0x28000, a.read(0x79) | a.read(0x7B) << 8 | a.read(0x7D) << 16);
        steps(a, 15 * 3);
        // 4 x 2.5 = 10 samples: 2 past the length of 8.
        assertEquals(0x20000, a.read(0x79) | a.read(0x7B) << 8 | a.read(0x7D) << 16);
    }

    @Test
    void theTurnsGoFromChannel8DownThroughTheEnabledOnes() {
        Namco163Audio a = chip();
        a.write(0x7F, 0x20); // three channels: 8, 7, 6
        for (int ch = 1; ch <= 8; ch++) {
            a.write(0x40 + 8 * (ch - 1) + 0, 1); // frequency 1: each turn leaves a mark in the phase
            a.write(0x40 + 8 * (ch - 1) + 4, 0xFC);
        }
        steps(a, 15 * 7);
        int[] phase = new int[9];
        for (int ch = 1; ch <= 8; ch++) {
            phase[ch] = a.read(0x40 + 8 * (ch - 1) + 1);
        }
        // Turns: 8, 7, 6, 8, 7, 6, 8.
        assertEquals("[0, 0, 0, 0, 0, 0, 2, 2, 3]", java.util.Arrays.toString(phase));
    }

    @Test
    void theDacHoldsSampleMinusEightTimesVolume() {
        Namco163Audio a = chip();
        a.write(0x00, 0x3C); // samples 12, 3
        a.write(0x7C, 0xFC); // length 4
        a.write(0x7F, 0x09); // volume 9, one channel
        steps(a, 15);
        // Frequency 0: sample 0 (12) stays on the DAC.
        // Submapper 0 takes submapper 3's level: the 225-step swing 12 dB over a 2A03 pulse at volume 15.
        int swing = (int) StrictMath.round(lockstep.nes.core.apu.ExpansionAudio.APU_PULSE_FULL * StrictMath.pow(10, 12 / 20.0));
        assertEquals(4 * 9 * swing / 225, a.output());
        assertEquals(14, a.quietSpan());
    }

}
