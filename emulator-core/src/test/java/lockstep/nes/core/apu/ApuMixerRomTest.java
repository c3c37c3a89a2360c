package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.RomHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * blargg's apu_mixer ROMs beep, play a tone on the channel under test together with its
 * inverse on the DMC DAC, then beep again: with a correct non-linear mixer the middle part is
 * near silence. This measures it from the audio output: the loudest 100 ms window between the
 * beeps must stay under 10% of the beep level (a linear mixer leaves about 33% on the square
 * and DMC tests). Ours measures about 5% (square), 9% (triangle), 5.5% (DMC) at the worst window.
 */
class ApuMixerRomTest {
    private static final int WINDOW = 4800;

    @ParameterizedTest
    @ValueSource(strings = {"square", "triangle", "dmc"})
    void cancelsToNearSilenceBetweenTheBeeps(String name) throws Exception {
        int[] rms = windowRms(name);
        int[] section = testSection(rms);
        int max = section[2];
        int worst = 0;
        for (int w = section[0]; w < section[1]; w++) {
            worst = Math.max(worst, rms[w]);
        }
        assertTrue(worst < max / 10, name + ": residual " + worst + " vs beep " + max);
    }

    /**
     * The readme: "For the noise test, noise will fade in and out". The envelope between the
     * beeps (its sounding part) must start below two thirds of its peak, peak inside the section
     * and fall back to under a fifth of it by the end. Ours, in RMS per 100 ms: about 290 at the
     * start, 610 at the peak (a quarter of the 2350 beep), 40 at the end.
     */
    @Test
    void noiseFadesInAndOutBetweenTheBeeps() throws Exception {
        int[] rms = windowRms("noise");
        int[] section = testSection(rms);
        int from = section[0];
        int to = section[1];
        // The sounding part: drop the near-silent windows at both ends.
        while (from < to && rms[from] < section[2] / 100) {
            from++;
        }
        while (to > from && rms[to - 1] < section[2] / 100) {
            to--;
        }
        int peakAt = from;
        for (int w = from; w < to; w++) {
            if (rms[w] > rms[peakAt]) {
                peakAt = w;
            }
        }
        int peak = rms[peakAt];
        int len = to - from;
        assertTrue(peakAt > from + len / 4 && peakAt < to - len / 4, "peak inside the section: " + peakAt);
        assertTrue(rms[from] < peak * 2 / 3, "fades in: start " + rms[from] + " vs peak " + peak);
        assertTrue(rms[to - 1] < peak / 5, "fades out: end " + rms[to - 1] + " vs peak " + peak);
        assertTrue(peak > section[2] / 10 && peak < section[2] / 2, "audible, below the beep: " + peak);
    }

    /** RMS of each 100 ms window of the ROM's audio, up to the end of its run. */
    private static int[] windowRms(String name) throws Exception {
        Console c = RomHarness.console("apu_mixer/" + name + ".nes");
        short[] audio = new short[48_000 * 30];
        int n = 0;
        for (int f = 0; f < 60 * 30; f++) {
            c.runFrame();
            n += c.apu().audio().read(audio, n, audio.length - n);
            if (c.peek(0x6001) == 0xDE && c.peek(0x6000) < 0x80) {
                break;
            }
        }
        assertEquals(0, c.peek(0x6000), "result code; text: " + RomHarness.text6000(c));
        int windows = n / WINDOW;
        int[] rms = new int[windows];
        for (int w = 0; w < windows; w++) {
            long sum = 0;
            for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
                sum += (long) audio[i] * audio[i];
            }
            rms[w] = (int) Math.sqrt((double) sum / WINDOW);
        }
        return rms;
    }

    /** {first window, end window (exclusive), beep level} of the test sound between the last two beeps. */
    private static int[] testSection(int[] rms) {
        int windows = rms.length;
        int max = 0;
        for (int r : rms) {
            max = Math.max(max, r);
        }
        // The last two loud groups are the beeps around the test sound.
        int secondBeep = windows - 1;
        while (secondBeep > 0 && rms[secondBeep] < max / 2) {
            secondBeep--;
        }
        while (secondBeep > 0 && rms[secondBeep - 1] >= max / 2) {
            secondBeep--;
        }
        int firstBeepEnd = secondBeep - 1;
        while (firstBeepEnd > 0 && rms[firstBeepEnd] < max / 2) {
            firstBeepEnd--;
        }
        assertTrue(secondBeep - firstBeepEnd > 10, "test sound section found");
        return new int[] {firstBeepEnd + 2, secondBeep - 1, max};
    }
}
