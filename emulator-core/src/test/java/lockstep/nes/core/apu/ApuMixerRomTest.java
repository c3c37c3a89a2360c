package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.RomHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * blargg's apu_mixer ROMs beep, play a tone on the channel under test together with its
 * inverse on the DMC DAC, then beep again: with a correct non-linear mixer the middle part is
 * near silence. This measures it from the audio output: the loudest 100 ms window between the
 * beeps must stay under 10% of the beep level (a linear mixer leaves about 33% on the square
 * and DMC tests). Ours measures about 6% (square), 9% (triangle), 5% (DMC).
 */
class ApuMixerRomTest {
    private static final int WINDOW = 4800;

    @ParameterizedTest
    @ValueSource(strings = {"square", "triangle", "dmc"})
    void cancelsToNearSilenceBetweenTheBeeps(String name) throws Exception {
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
        int max = 0;
        for (int w = 0; w < windows; w++) {
            long sum = 0;
            for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
                sum += (long) audio[i] * audio[i];
            }
            rms[w] = (int) Math.sqrt((double) sum / WINDOW);
            max = Math.max(max, rms[w]);
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
        int worst = 0;
        for (int w = firstBeepEnd + 2; w < secondBeep - 1; w++) {
            worst = Math.max(worst, rms[w]);
        }
        assertTrue(worst < max / 10, name + ": residual " + worst + " vs beep " + max);
    }
}
