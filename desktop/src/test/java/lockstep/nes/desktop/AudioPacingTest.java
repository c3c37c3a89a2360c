package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class AudioPacingTest {
    @Test
    void ratioFollowsTheQueueWithinHalfAPercent() {
        assertEquals(1.0, RateControl.ratio(2400, 2400));
        assertEquals(1.005, RateControl.ratio(0, 2400), 1e-12);
        assertEquals(0.995, RateControl.ratio(4800, 2400), 1e-12);
        assertEquals(0.995, RateControl.ratio(100_000, 2400), 1e-12, "clamped");
        assertTrue(RateControl.ratio(1200, 2400) > 1.0);
    }

    @Test
    void ratioOneKeepsEverySample() {
        RateControl rc = new RateControl();
        short[] in = new short[800];
        for (int i = 0; i < in.length; i++) {
            in[i] = (short) (i * 37 - 9000);
        }
        short[] out = new short[2000];
        int total = 0;
        short[] all = new short[4000];
        for (int block = 0; block < 3; block++) {
            int k = rc.process(in, in.length, 1.0, out);
            System.arraycopy(out, 0, all, total, k);
            total += k;
        }
        assertEquals(2400, total);
        for (int i = 0; i < 800; i++) {
            assertEquals(in[i], all[i], "sample " + i);
            assertEquals(in[i], all[1600 + i], "sample " + (1600 + i));
        }
    }

    @Test
    void aFasterRatioMakesProportionallyMoreSamplesWithoutJumps() {
        RateControl rc = new RateControl();
        short[] in = new short[800];
        short[] out = new short[2000];
        long made = 0;
        int prev = Integer.MIN_VALUE;
        for (int block = 0; block < 100; block++) {
            for (int i = 0; i < in.length; i++) {
                in[i] = (short) Math.round(8000 * Math.sin(2 * Math.PI * 440 * (block * 800 + i) / 48_000.0));
            }
            int k = rc.process(in, in.length, 1.005, out);
            for (int i = 0; i < k; i++) {
                if (prev != Integer.MIN_VALUE) {
                    assertTrue(Math.abs(out[i] - prev) < 600, "smooth across blocks: " + prev + " -> " + out[i]);
                }
                prev = out[i];
            }
            made += k;
        }
        assertEquals(80_000 * 1.005, made, 2);
    }

    /**
     * A sound card whose clock runs 0.3% fast drains the queue a little faster than the emulator
     * fills it at ratio 1; frames are run whenever the queue is under target, as the app does.
     * The queue settles instead of running dry: dynamic rate control absorbs the difference.
     */
    @Test
    void theQueueStaysNearTargetWhenTheSoundCardClockDrifts() {
        RateControl rc = new RateControl();
        int target = 2400;
        double queue = 0;
        short[] frame = new short[799];
        short[] out = new short[2000];
        double cardPerMs = 48.0 * 1.003;
        int underruns = 0;
        double maxQueue = 0;
        for (int ms = 0; ms < 60_000; ms++) {
            queue -= cardPerMs;
            if (queue < 0) {
                if (ms > 1000) {
                    underruns++;
                }
                queue = 0;
            }
            if (ms % 16 == 0) {
                while (queue < target) {
                    queue += rc.process(frame, frame.length, RateControl.ratio((int) queue, target), out);
                }
            }
            if (ms > 1000) {
                maxQueue = Math.max(maxQueue, queue);
            }
        }
        assertEquals(0, underruns);
        assertTrue(maxQueue < target + 2 * 810, "latency bounded: " + maxQueue);
    }

    @Test
    void theNullSinkPlaysAtTheSampleRateByItsClock() {
        long[] now = {1_000_000_000L};
        NullAudio a = new NullAudio(48_000, 12_000, "test", () -> now[0]);
        assertEquals(0, a.queued());
        a.write(new short[800], 800);
        assertEquals(800, a.queued());
        now[0] += 10_000_000L; // 10 ms = 480 samples
        assertEquals(320, a.queued());
        a.write(new short[800], 800);
        assertEquals(1120, a.queued());
        now[0] += 1_000_000_000L;
        assertEquals(0, a.queued(), "ran dry");
        a.write(new short[800], 800);
        assertEquals(800, a.queued(), "after running dry the clock restarts at the write");
        a.write(new short[12_000], 12_000);
        assertEquals(800, a.queued(), "a full queue drops samples");
        assertTrue(a.description().startsWith("no audio device (test)"));
    }
}
