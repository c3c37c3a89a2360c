package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ChannelTest {

    private static Pulse pulse(boolean first, int period) {
        Pulse p = new Pulse(first);
        p.power();
        p.length.setEnabled(true);
        p.write(0, 0x3F); // duty 0, halt, constant volume 15
        p.write(2, period & 0xFF);
        p.write(3, (period >> 8) | 0x08);
        p.length.applyWrites();
        return p;
    }

    @Test
    void sweepNegatesWithOnesComplementOnPulse1AndTwosOnPulse2() {
        Pulse p1 = pulse(true, 0x100);
        Pulse p2 = pulse(false, 0x100);
        p1.write(1, 0x89); // enabled, divider period 0, negate, shift 1
        p2.write(1, 0x89);
        p1.halfFrame();
        p2.halfFrame();
        assertEquals(0x7F, p1.period());
        assertEquals(0x80, p2.period());
    }

    @Test
    void sweepAddsAndMutesWhenTheTargetOverflows() {
        Pulse p = pulse(false, 0x300);
        p.write(1, 0x81); // enabled, add, shift 1: target 0x480
        p.halfFrame();
        assertEquals(0x480, p.period());
        // Now the target is 0x6C0; once more 0x6C0 -> target 0xA20 mutes.
        p.halfFrame();
        assertEquals(0x6C0, p.period());
        p.halfFrame();
        assertEquals(0x6C0, p.period(), "target above $7FF: period kept");
        for (int i = 0; i < 64; i++) {
            p.step();
            assertEquals(0, p.output(), "muted by the sweep target");
        }
    }

    @Test
    void sweepDividerCountsPPlusOneHalfFrames() {
        Pulse p = pulse(false, 0x100);
        p.write(1, 0xA7 & ~0x07 | 0x04); // enabled, P = 2, shift 4: +0x10 per update
        p.halfFrame(); // divider 0 at power: updates, then reloads to 2
        assertEquals(0x110, p.period());
        p.halfFrame();
        p.halfFrame();
        assertEquals(0x110, p.period());
        p.halfFrame();
        assertEquals(0x121, p.period());
    }

    @Test
    void pulseDutyAndPeriodGiveTheRightWaveform() {
        Pulse p = pulse(false, 8); // timer period (8+1)*2 = 18 CPU cycles per step
        p.write(0, 0xBF); // duty 2 (50%)
        int high = 0;
        int changes = 0;
        int last = p.output();
        for (int i = 0; i < 18 * 8 * 10; i++) {
            p.step();
            int o = p.output();
            if (o != 0) {
                high++;
            }
            if (o != last) {
                changes++;
            }
            last = o;
        }
        assertEquals(18 * 8 * 10 / 2, high);
        assertEquals(20, changes);
    }

    @Test
    void periodsBelowEightAreSilent() {
        Pulse p = pulse(false, 7);
        for (int i = 0; i < 200; i++) {
            p.step();
            assertEquals(0, p.output());
        }
    }

    @Test
    void envelopeDecaysAndLoops() {
        Pulse p = pulse(false, 0x100);
        p.write(0, 0x20 | 0x00 | 0x00); // envelope mode, loop (halt), divider period 0
        p.length.applyWrites();
        p.write(3, 0x08 | 0x01);
        p.quarterFrame(); // start: decay = 15
        int[] seen = new int[17];
        for (int i = 0; i < 17; i++) {
            seen[i] = decayLevel(p);
            p.quarterFrame();
        }
        assertEquals(15, seen[0]);
        assertEquals(0, seen[15]);
        assertEquals(15, seen[16], "loops back to 15");
    }

    /** The envelope level, read through the output when the duty step is high. */
    private static int decayLevel(Pulse p) {
        for (int i = 0; i < 4096; i++) {
            if (p.output() != 0) {
                return p.output();
            }
            p.step();
        }
        return 0;
    }

    @Test
    void noiseLfsrPeriodsAre32767And93() {
        for (int mode = 0; mode < 2; mode++) {
            Noise n = new Noise();
            n.power();
            n.write(2, mode == 1 ? 0x80 : 0x00); // period index 0: 4 CPU cycles
            int start = n.shiftRegister();
            int shifts = 0;
            do {
                for (int i = 0; i < 4; i++) {
                    n.step();
                }
                shifts++;
            } while (n.shiftRegister() != start && shifts < 40000);
            assertEquals(mode == 1 ? 93 : 32767, shifts);
        }
    }

    @Test
    void triangleStepsOnlyWithBothCountersAndHoldsItsLevel() {
        Triangle t = new Triangle();
        t.power();
        t.length.setEnabled(true);
        t.write(0, 0x7F); // linear reload 127, control off
        t.write(2, 0); // period 0: ultrasonic, one step per cycle
        t.write(3, 0x08);
        t.length.applyWrites();
        int before = t.output();
        t.step();
        assertEquals(before, t.output(), "linear counter still 0");
        t.quarterFrame(); // reload linear counter
        int[] levels = new int[32];
        for (int i = 0; i < 32; i++) {
            t.step();
            levels[i] = t.output();
        }
        int sum = 0;
        for (int l : levels) {
            sum += l;
        }
        assertEquals(15 * 16, sum, "a full 32-step cycle averages 7.5");
        t.length.setEnabled(false);
        int held = t.output();
        for (int i = 0; i < 10; i++) {
            t.step();
            assertEquals(held, t.output(), "halted sequencer keeps its level");
        }
    }

    @Test
    void mixerIsMonotonicAndStartsAtZero() {
        assertEquals(0, Mixer.mix(0, 0, 0, 0, 0));
        int last = -1;
        for (int p = 0; p <= 30; p++) {
            int v = Mixer.mix(p / 2, p - p / 2, 0, 0, 0);
            assertTrue(v > last);
            last = v;
        }
        // Full scale of all channels is just under 1.0.
        int max = Mixer.mix(15, 15, 15, 15, 127);
        assertTrue(max > Mixer.FULL_SCALE * 95 / 100 && max < Mixer.FULL_SCALE, "max " + max);
    }
}
