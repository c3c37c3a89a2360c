package lockstep.nes.core.cart.konami;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The VRC6's sound unit driven by hand, one CPU cycle a step. */
class Vrc6AudioTest {
    private static Vrc6Audio chip() {
        Vrc6Audio a = new Vrc6Audio();
        a.power();
        return a;
    }

    @Test
    void theModeBitOutputsTheVolumeWhateverTheDuty() {
        Vrc6Audio a = chip();
        a.write(0, 0, 0x8A); // mode, duty 0, volume 10
        a.write(0, 2, 0x80);
        for (int i = 0; i < 100; i++) {
            a.step();
            assertEquals(10, a.level());
        }
    }

    @Test
    void clearingTheEnableSilencesAndResetsTheDutyPosition() {
        Vrc6Audio a = chip();
        a.write(0, 0, 0x0F); // duty 0: one step of 16 sounds
        a.write(0, 2, 0x80); // period 0: a step a cycle
        int sounding = 0;
        for (int i = 0; i < 160; i++) {
            a.step();
            sounding += a.level() == 15 ? 1 : 0;
        }
        assertEquals(10, sounding);
        a.write(0, 2, 0x00);
        assertEquals(0, a.level());
        a.write(0, 2, 0x80);
        assertEquals(15, a.level(), "position 0 again: within the duty");
    }

    @Test
    void theSawtoothWrapsItsEightBitAccumulatorAboveRate42() {
        Vrc6Audio a = chip();
        a.write(2, 0, 0x3F); // rate 63: 6 x 63 = 378 wraps
        a.write(2, 2, 0x80);
        int[] seen = new int[14];
        for (int i = 0; i < 14; i++) {
            a.step();
            seen[i] = a.level();
        }
        // Steps 1..13 then 0: additions on even steps, 8-bit wrap; output the top 5 bits.
        int[] expected = {0, 63 >> 3, 63 >> 3, 126 >> 3, 126 >> 3, 189 >> 3, 189 >> 3, 252 >> 3, 252 >> 3,
            (315 & 0xFF) >> 3, (315 & 0xFF) >> 3, (378 & 0xFF) >> 3, (378 & 0xFF) >> 3, 0};
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(seen));
    }

    @Test
    void aQuietSpanEndsBeforeTheNextDividerClock() {
        Vrc6Audio a = chip();
        a.write(0, 0, 0x7F);
        a.write(0, 1, 9);
        a.write(0, 2, 0x80);
        a.step(); // reloads: 9 cycles of counting follow
        assertEquals(9, a.quietSpan());
        a.skip(9);
        int before = a.level();
        a.step();
        assertEquals(9, a.quietSpan());
        assertEquals(before, a.level(), "duty 7: positions 0-7 all sound");
        a.write(0, 3, 1); // halt
        assertEquals(Integer.MAX_VALUE, a.quietSpan());
    }
}
