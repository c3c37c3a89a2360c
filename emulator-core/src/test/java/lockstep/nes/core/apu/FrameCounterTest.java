package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import org.junit.jupiter.api.Test;

/** Frame counter and length counter timing, driving the APU one cycle at a time. */
class FrameCounterTest {

    /** Calls cycle() until irq() is first true; returns how many calls that took. */
    static int cyclesUntilIrq(Apu apu, int limit) {
        for (int n = 1; n <= limit; n++) {
            apu.cycle();
            if (apu.irq()) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void powerActsAsA4017WriteThreeCyclesBeforeCounting() {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        // The write takes effect on the 3rd cycle; the flag rises 29828 cycles later.
        assertEquals(3 + 29828, cyclesUntilIrq(apu, 40000));
    }

    @Test
    void writeDelayIsFourCyclesAfterAnOddCycleAndThreeAfterAnEvenOne() {
        Console c = TestCarts.nopConsole();
        // Console cycle is -1 right after power: odd.
        Apu apu = c.apu();
        apu.write(0x4017, 0x00);
        assertEquals(4 + 29828, cyclesUntilIrq(apu, 40000));

        c.runCycle(); // cycle 0: even
        apu.power();
        for (int i = 0; i < 3; i++) {
            apu.cycle();
        }
        apu.write(0x4017, 0x00);
        assertEquals(3 + 29828, cyclesUntilIrq(apu, 40000));
    }

    @Test
    void flagIsSetOnThreeConsecutiveCyclesAndRepeatsEvery29830() {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        assertEquals(29831, cyclesUntilIrq(apu, 40000), "first set: 3 + 29828");
        for (int i = 0; i < 3; i++) {
            apu.cycle();
        }
        apu.read(0x4015, 0);
        apu.cycle();
        assertFalse(apu.irq());
        assertEquals(29830 - 4, cyclesUntilIrq(apu, 40000), "the next sequence's first set");
    }

    /** Runs to the cycle {@code k} after the first setting cycle (29828), reads $4015 there; returns {read bit 6, flag 4 cycles later}. */
    private static int[] readAt(int k) {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        int n = 29831 + k;
        for (int i = 0; i < n; i++) {
            apu.cycle();
        }
        int read = apu.read(0x4015, 0) & 0x40;
        for (int i = 0; i < 4; i++) {
            apu.cycle();
        }
        return new int[] {read, apu.peek(0x4015, 0) & 0x40};
    }

    @Test
    void aReadClearsTheFlagOnlyWhenNoSettingStepFollowsItsClear() {
        // The clear lands at the next put-to-get step, before that step sets the flag again.
        assertArrayEquals(new int[] {0, 0x40}, readAt(-1), "the cycle before the first set");
        assertArrayEquals(new int[] {0x40, 0x40}, readAt(0), "the first setting cycle");
        assertArrayEquals(new int[] {0x40, 0x40}, readAt(1), "the second");
        assertArrayEquals(new int[] {0x40, 0}, readAt(2), "the third: nothing sets it after the clear");
        assertArrayEquals(new int[] {0x40, 0}, readAt(3), "one cycle after the last set");
    }

    @Test
    void theClearWaitsForTheNextPutToGetStep() {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        for (int i = 0; i < 29831 + 2; i++) {
            apu.cycle(); // through the third setting cycle (a put-to-get step)
        }
        apu.read(0x4015, 0);
        assertTrue(apu.irq(), "read on a put-to-get step's cycle: still set");
        apu.cycle(); // a get-to-put step
        assertTrue(apu.irq(), "/IRQ still low one cycle after the read");
        apu.cycle(); // put-to-get: cleared
        assertFalse(apu.irq());
        assertEquals(0, apu.peek(0x4015, 0) & 0x40);

        Apu odd = TestCarts.nopConsole().apu();
        odd.power();
        for (int i = 0; i < 29831 + 3; i++) {
            odd.cycle();
        }
        odd.read(0x4015, 0);
        assertTrue(odd.irq());
        odd.cycle(); // the next step is put-to-get
        assertFalse(odd.irq(), "cleared one cycle after a read on a get-to-put step's cycle");
    }

    @Test
    void anInhibitedCounterShowsTheFlagForTwoCyclesWithoutPullingIrq() {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        apu.write(0x4017, 0x40);
        int n = 0;
        while ((apu.peek(0x4015, 0) & 0x40) == 0 && n < 40000) {
            apu.cycle();
            n++;
            assertFalse(apu.irq());
        }
        assertEquals(4 + 29828, n, "the write on an odd cycle takes effect after 4; the flag at 29828");
        assertFalse(apu.irq(), "inhibited: /IRQ stays high");
        apu.cycle();
        assertEquals(0x40, apu.peek(0x4015, 0) & 0x40, "29829: set again");
        assertFalse(apu.irq());
        apu.cycle();
        assertEquals(0, apu.peek(0x4015, 0) & 0x40, "29830: cleared while inhibited");
        assertFalse(apu.irq());
    }

    @Test
    void fiveStepModeAndInhibitNeverRaiseTheFlag() {
        for (int value : new int[] {0x80, 0x40, 0xC0}) {
            Apu apu = TestCarts.nopConsole().apu();
            apu.write(0x4017, value);
            assertEquals(-1, cyclesUntilIrq(apu, 100_000), "mode $" + Integer.toHexString(value));
        }
    }

    @Test
    void writingInhibitClearsTheFlag() {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        cyclesUntilIrq(apu, 40000);
        apu.write(0x4017, 0x40);
        assertFalse(apu.irq());
        assertEquals(0, apu.peek(0x4015, 0) & 0x40);
    }

    private static Apu withPulseLength(int index) {
        Apu apu = TestCarts.nopConsole().apu();
        apu.power();
        for (int i = 0; i < 3; i++) {
            apu.cycle();
        }
        apu.write(0x4015, 0x01);
        apu.write(0x4003, index << 3);
        apu.cycle();
        return apu;
    }

    @Test
    void entering5StepModeClocksLengthImmediately() {
        // Index 3 = length 2: one clock leaves 1, a second clears it.
        Apu apu = withPulseLength(3);
        assertEquals(1, apu.peek(0x4015, 0) & 1);
        apu.write(0x4017, 0x80);
        for (int i = 0; i < 4; i++) {
            apu.cycle();
        }
        apu.write(0x4017, 0x80);
        for (int i = 0; i < 4; i++) {
            apu.cycle();
        }
        assertEquals(0, apu.peek(0x4015, 0) & 1, "two immediate half-frame clocks");
    }

    @Test
    void writing4017WithZeroDoesNotClock() {
        Apu apu = withPulseLength(3);
        apu.write(0x4017, 0x00);
        for (int i = 0; i < 4; i++) {
            apu.cycle();
        }
        apu.write(0x4017, 0x00);
        for (int i = 0; i < 4; i++) {
            apu.cycle();
        }
        assertEquals(1, apu.peek(0x4015, 0) & 1);
    }

    @Test
    void firstHalfFrameClockComes14913CyclesAfterTheWrite() {
        Apu apu = withPulseLength(3); // length 2, 4-step mode restarted by power
        // Power's write took effect 4 cycles ago (3 + the one in withPulseLength): count on.
        int n = 4;
        while ((apu.peek(0x4015, 0) & 1) != 0 && n < 100_000) {
            apu.cycle();
            n++;
        }
        // Two half-frame clocks: 14913 and 29829 cycles after the write took effect (cycle 3).
        assertEquals(3 + 29829, n);
    }

    @Test
    void lengthCounterTableMatchesHardware() {
        int[] expected = {10, 254, 20, 2, 40, 4, 80, 6, 160, 8, 60, 10, 14, 12, 26, 14,
            12, 16, 24, 18, 48, 20, 96, 22, 192, 24, 72, 26, 16, 28, 32, 30};
        LengthCounter lc = new LengthCounter();
        for (int i = 0; i < 32; i++) {
            lc.power();
            lc.setEnabled(true);
            lc.load(i);
            lc.applyWrites();
            assertEquals(expected[i], lc.counter, "index " + i);
        }
    }

    @Test
    void reloadOnTheCycleOfAClockIsIgnoredOnlyWhenTheCounterWasNonzero() {
        LengthCounter lc = new LengthCounter();
        lc.power();
        lc.setEnabled(true);
        lc.load(1); // 254
        lc.applyWrites();
        lc.load(0); // 10, written on the cycle before the clock
        lc.clock();
        lc.applyWrites();
        assertEquals(253, lc.counter, "reload lost to the clock");

        lc.power();
        lc.setEnabled(true);
        lc.load(0);
        lc.clock();
        lc.applyWrites();
        assertEquals(10, lc.counter, "zero counter: the reload wins");
    }

    @Test
    void haltWrittenJustBeforeAClockTakesEffectAfterIt() {
        LengthCounter lc = new LengthCounter();
        lc.power();
        lc.setEnabled(true);
        lc.load(1);
        lc.applyWrites();
        lc.writeHalt(true);
        lc.clock();
        lc.applyWrites();
        assertEquals(253, lc.counter);
        lc.clock();
        assertEquals(253, lc.counter);
    }

    @Test
    void disablingClearsAndBlocksLoads() {
        LengthCounter lc = new LengthCounter();
        lc.power();
        lc.setEnabled(true);
        lc.load(1);
        lc.applyWrites();
        lc.setEnabled(false);
        assertEquals(0, lc.counter);
        lc.load(1);
        lc.applyWrites();
        assertEquals(0, lc.counter);
    }
}
