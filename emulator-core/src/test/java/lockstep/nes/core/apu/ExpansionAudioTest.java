package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import lockstep.nes.core.Console;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * The expansion-audio hook: a cartridge chip stepped in the APU's catch-up is stepped exactly
 * as by an APU stepped every cycle, and its output is mixed into the samples.
 */
class ExpansionAudioTest {
    /** A square wave: a 12-bit period, a 4-bit volume; silent with period 0. */
    static final class SquareChip extends ExpansionAudio {
        int period;
        int volume;
        int timer;
        boolean high;
        long skipped;

        void write(int period, int volume) {
            catchUp();
            this.period = period & 0xFFF;
            this.volume = volume & 0xF;
            changed();
        }

        @Override
        public void power() {
            period = 0;
            volume = 0;
            timer = 0;
            high = false;
        }

        @Override
        protected void step() {
            if (period == 0) {
                return;
            }
            if (timer == 0) {
                timer = period;
                high = !high;
            } else {
                timer--;
            }
        }

        @Override
        protected int output() {
            return high ? volume * 4 * PULSE_STEP : 0;
        }

        @Override
        protected int quietSpan() {
            return period == 0 ? Integer.MAX_VALUE : timer;
        }

        @Override
        protected void skip(int n) {
            if (period != 0) {
                timer -= n;
            }
            skipped += n;
        }

        @Override
        public void state(StateVisitor s) {
            period = s.u16("period", period, 0xFFF);
            volume = s.u8("volume", volume, 15);
            timer = s.u16("timer", timer, 0xFFF);
            high = s.bool("high", high);
        }
    }

    private static final short[] A = new short[1 << 16];
    private static final short[] B = new short[1 << 16];

    @Test
    void aChipSteppedLazilyEqualsOneSteppedEveryCycle() {
        Random r = new Random(5);
        Console c = TestCarts.nopConsole();
        SquareChip lazyChip = new SquareChip();
        SquareChip eagerChip = new SquareChip();
        Apu lazy = new Apu(c.dma(), lazyChip);
        Apu eager = new Apu(c.dma(), eagerChip);
        eager.setEager(true);
        long nextWrite = 0;
        int compared = 0;
        for (int i = 0; i < 600_000; i++) {
            c.runCycle();
            lazy.runTo(c.cycles());
            eager.runTo(c.cycles());
            if (c.cycles() >= nextWrite) {
                int period = r.nextInt(8) == 0 ? 0 : r.nextInt(0x1000);
                int volume = r.nextInt(16);
                lazyChip.write(period, volume);
                eagerChip.write(period, volume);
                nextWrite = c.cycles() + 1 + r.nextInt(r.nextBoolean() ? 50 : 20_000);
            }
            if (r.nextInt(5000) == 0) {
                int n = lazy.audio().read(A, 0, A.length);
                assertEquals(n, eager.audio().read(B, 0, B.length));
                for (int k = 0; k < n; k++) {
                    assertEquals(B[k], A[k], "sample " + k + " at cycle " + c.cycles());
                }
                compared += n;
                assertEquals(eagerChip.timer, lazyChip.timer);
                assertEquals(eagerChip.high, lazyChip.high);
            }
        }
        assertTrue(compared > 10_000, "samples compared: " + compared);
        assertTrue(lazyChip.skipped > 100_000, "the lazy APU skipped through quiet spans: " + lazyChip.skipped);
        assertEquals(0, eagerChip.skipped, "the reference steps every cycle");
    }

    @Test
    void theChipIsMixedIntoTheSamples() {
        Console c = TestCarts.nopConsole();
        SquareChip chip = new SquareChip();
        Apu with = new Apu(c.dma(), chip);
        Apu without = new Apu(c.dma());
        chip.write(100, 15); // 1789773 / 202 Hz: about 8.9 kHz
        int loud = 0;
        for (int i = 0; i < 100_000; i++) {
            c.runCycle();
            with.runTo(c.cycles());
            without.runTo(c.cycles());
        }
        int n = with.audio().read(A, 0, A.length);
        int m = without.audio().read(B, 0, B.length);
        assertEquals(n, m);
        for (int k = 0; k < n; k++) {
            // The 2A03's part (its power-on level settling) is the same in both.
            if (Math.abs(A[k] - B[k]) > 4 * 15 * ExpansionAudio.PULSE_STEP / 3) {
                loud++;
            }
        }
        assertTrue(loud > n / 2, "loud samples " + loud + " of " + n);
        assertNotEquals(0, chip.skipped);
    }
}
