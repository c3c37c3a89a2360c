package lockstep.nes.core.cart.sunsoft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The 5B's YM2149F core driven by hand, one CPU cycle a step. */
class Sunsoft5bAudioTest {
    private static Sunsoft5bAudio chip() {
        Sunsoft5bAudio a = new Sunsoft5bAudio();
        a.power();
        return a;
    }

    private static void write(Sunsoft5bAudio a, int reg, int value) {
        a.writeSelect(reg);
        a.writeData(value);
    }

    @Test
    void volumeStepsAreThreeDecibelsApart() {
        Sunsoft5bAudio a = chip();
        write(a, 7, 0x3F); // everything disabled: channels always sound
        int last = 0;
        for (int v = 1; v <= 15; v++) {
            write(a, 8, v);
            int now = a.output();
            if (v > 1) {
                // 3 dB: the amplitude ratio is 10^(3/20), about 1.41.
                double ratio = (double) now / last;
                assertEquals(Math.pow(10, 3 / 20.0), ratio, 0.02, "volume " + v);
            }
            last = now;
        }
        write(a, 8, 0);
        assertEquals(0, a.output());
    }

    @Test
    void holdShapesStopAtTheirLastLevel() {
        // 1011 (\ then high), 1101 (/ then high), 1111 (/ then low), 1001 (\ then low), 0xxx (then low).
        int[][] shapes = {{0x0B, 31}, {0x0D, 31}, {0x0F, 0}, {0x09, 0}, {0x00, 0}, {0x04, 0}};
        for (int[] shape : shapes) {
            Sunsoft5bAudio a = chip();
            write(a, 7, 0x3F);
            write(a, 8, 0x10);
            write(a, 11, 1);
            write(a, 13, shape[0]);
            for (int i = 0; i < 16 * 40; i++) {
                a.step();
            }
            Sunsoft5bAudio full = chip();
            write(full, 7, 0x3F);
            write(full, 8, 15); // level 31
            assertEquals(shape[1] == 31 ? full.output() : 0, a.output(), "shape " + shape[0]);
        }
    }

    @Test
    void skippingAQuietSpanEqualsSteppingIt() {
        Sunsoft5bAudio a = chip();
        Sunsoft5bAudio b = chip();
        for (Sunsoft5bAudio c : new Sunsoft5bAudio[] {a, b}) {
            write(c, 0, 37);
            write(c, 2, 3);
            write(c, 6, 5);
            write(c, 7, 0x30);
            write(c, 8, 15);
            write(c, 9, 0x10);
            write(c, 11, 7);
            write(c, 13, 0x0E);
        }
        for (int i = 0; i < 20_000; i++) {
            int span = a.quietSpan();
            assertTrue(span >= 0);
            int level = a.output();
            if (span > 0) {
                a.skip(span);
                for (int k = 0; k < span; k++) {
                    b.step();
                    assertEquals(level, b.output(), "quiet span changed the output");
                }
            }
            a.step();
            b.step();
            assertEquals(b.output(), a.output());
        }
    }
}
