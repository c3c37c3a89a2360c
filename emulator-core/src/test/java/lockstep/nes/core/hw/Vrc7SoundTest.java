package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.apu.ExpansionAudio;
import org.junit.jupiter.api.Test;

/**
 * The VRC7's FM channels (NESdev "VRC7 audio") played by a program through $9010/$9030 and read
 * at the cartridge's audio pin: one sample every 36 CPU cycles; a phase advancing by
 * (F-number &lt;&lt; block) x MULT / 2 of 2^19 a sample (MULT twice the multiplier); an operator's output the exponential of
 * the log-sine of its phase plus its attenuation (16 log units a 0.375 dB step); the
 * modulator's output (halved) added to the carrier's phase.
 */
class Vrc7SoundTest {
    /** -log2(sin) of a quarter wave (256 steps) and 2^(-i/256), the chip's two ROM tables. */
    private static int operator(int index, int att) {
        int i = index & 1023;
        int q = (i & 256) != 0 ? 255 - (i & 255) : i & 255;
        int logSin = (int) StrictMath.round(-StrictMath.log(StrictMath.sin((q + 0.5) * StrictMath.PI / 512))
                / StrictMath.log(2) * 256);
        int total = logSin + (att << 4);
        if (total >= 13 * 256) {
            return 0;
        }
        int exp = (int) StrictMath.round(StrictMath.pow(2, -(total & 255) / 256.0) * 2048);
        int amp = (exp << 1) >> (total >> 8);
        return (i & 512) != 0 ? -amp : amp;
    }

    /** A program: the custom instrument, then channel 0 keyed with F-number, block and volume. */
    private static String program(int[] custom, int fnum, int block, int instrumentVolume) {
        StringBuilder s = new StringBuilder("reset:\n");
        int[][] writes = new int[custom.length + 3][];
        for (int i = 0; i < custom.length; i++) {
            writes[i] = new int[] {i, custom[i]};
        }
        writes[custom.length] = new int[] {0x30, instrumentVolume};
        writes[custom.length + 1] = new int[] {0x10, fnum & 0xFF};
        writes[custom.length + 2] = new int[] {0x20, 0x10 | block << 1 | fnum >> 8};
        for (int[] w : writes) {
            s.append("  lda #").append(w[0]).append("\n  sta $9010\n");
            s.append("  lda #").append(w[1]).append("\n  sta $9030\n");
        }
        s.append("  jmp pass\n");
        return s.toString();
    }

    /** The output sample by sample (whole 36-cycle samples), from the first nonzero one. */
    private static List<Integer> samples(HardwareProgram p, int count) {
        List<ExpansionSound.Run> runs = ExpansionSound.record(p, 36 * (count + 40));
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i < runs.size() - 1; i++) {
            ExpansionSound.Run r = runs.get(i);
            assertEquals(0, r.cycles() % 36, "whole samples: " + r);
            for (int k = 0; k < r.cycles() / 36; k++) {
                out.add(r.level());
            }
        }
        int first = 0;
        while (first < out.size() && out.get(first) == 0) {
            first++;
        }
        return out.subList(first, Math.min(out.size(), first + count));
    }

    /** A full-volume sine, peak to peak, 11 dB louder than a 2A03 pulse at volume 15 (NESdev's VRC7 level). */
    private static final int FULL_SWING =
            (int) StrictMath.round(ExpansionAudio.APU_PULSE_FULL * StrictMath.pow(10, 11 / 20.0));

    private static int level(int carrier) {
        return carrier * FULL_SWING / 8192;
    }

    @Test
    void aFullVolumeSineIsElevenDecibelsLouderThanA2A03PulseAtFifteen() {
        // Carrier at volume 0, attack at once, sustained; the modulator (total level 63, MULT 2)
        // crosses zero each time the carrier (MULT 1) is at a peak, so the peaks are the sine's.
        int[] custom = {0x22, 0x21, 63, 0x00, 0xF0, 0xF0, 0x00, 0x00};
        List<Integer> got = samples(HardwareProgram.onBoard(program(custom, 0x100, 4, 0x00), 85, 0), 2000);
        int high = 0;
        int low = 0;
        for (int v : got) {
            high = Math.max(high, v);
            low = Math.min(low, v);
        }
        assertEquals(level(4096), high);
        assertEquals(level(-4096), low);
        double db = 20 * Math.log10((double) (high - low) / ExpansionAudio.APU_PULSE_FULL);
        assertEquals(11, db, 0.01, "peak to peak " + (high - low) + " against " + ExpansionAudio.APU_PULSE_FULL);
    }

    @Test
    void aCarrierModulatedByItsModulatorFollowsTheLogSinAndExpTables() {
        // Both operators: sustained, MULT 1, attack rate 15 (at once), no decay; modulator total
        // level 20 (15 dB), carrier volume 2 (6 dB); no feedback, no key scaling, no LFOs.
        int[] custom = {0x21, 0x21, 20, 0x00, 0xF0, 0xF0, 0x00, 0x00};
        int fnum = 0x120;
        int block = 4;
        HardwareProgram p = HardwareProgram.onBoard(program(custom, fnum, block, 0x02), 85, 0);
        List<Integer> got = samples(p, 400);
        assertEquals(400, got.size());
        int inc = (fnum << block) * 2 >> 1;
        int[] expected = new int[500];
        for (int n = 1; n <= expected.length; n++) {
            int phase = n * inc & 0x7FFFF;
            int mod = operator(phase >> 9, 20 << 1);
            expected[n - 1] = level(operator((phase >> 9) + (mod >> 1), 2 << 3));
        }
        // The recording starts a few cycles after the key-on: find which sample it starts at.
        int match = -1;
        for (int j = 0; j < 100 && match < 0; j++) {
            boolean all = true;
            for (int n = 0; n < got.size() && all; n++) {
                all = got.get(n) == expected[j + n];
            }
            match = all ? j : -1;
        }
        assertTrue(match >= 0 && match < 3, "400 samples from the key-on as computed: " + got.subList(0, 20)
                + " vs " + java.util.Arrays.toString(java.util.Arrays.copyOf(expected, 20)));
    }

    @Test
    void romInstrumentsAreTheFixedPatchSet() {
        // Instrument 3 ("Wurly": 11 11 08 08 FA B2 20 12) sounds as the custom instrument loaded with those bytes.
        int[] wurly = {0x11, 0x11, 0x08, 0x08, 0xFA, 0xB2, 0x20, 0x12};
        int[] unused = {0x01, 0x01, 0x3F, 0x07, 0x11, 0x11, 0x11, 0x11};
        List<Integer> rom = samples(HardwareProgram.onBoard(program(unused, 0x150, 3, 0x30), 85, 0), 3000);
        List<Integer> custom = samples(HardwareProgram.onBoard(program(wurly, 0x150, 3, 0x00), 85, 0), 3000);
        assertEquals(3000, rom.size());
        assertEquals(custom, rom);
        List<Integer> other = samples(HardwareProgram.onBoard(program(unused, 0x150, 3, 0x40), 85, 0), 3000);
        assertTrue(!other.equals(rom), "instrument 4 differs");
    }

    @Test
    void theDecayFollowsTheRateTable() {
        // Carrier: attack at once, decay rate 8, sustain level 15 (45 dB, not reached); key scaling
        // off adds (block 4, F-number bit 8: 9) >> 2 = 2: rate 34, pattern 2 (6 steps of 8) every
        // 2^(13 - 8) = 32 samples: 0.75 x 0.375 dB per 32 samples, 36 dB over 4096.
        int[] custom = {0x21, 0x21, 63, 0x00, 0xF0, 0xF8, 0xF0, 0xF0};
        HardwareProgram p = HardwareProgram.onBoard(program(custom, 0x100, 4, 0x00), 85, 0);
        List<Integer> got = samples(p, 8000);
        int first = peak(got, 0, 1024);
        int later = peak(got, 4096, 5120);
        double db = 20 * Math.log10((double) first / later);
        assertEquals(36, db, 1.0, "decay over 4096 samples: peaks " + first + " -> " + later);
    }

    private static int peak(List<Integer> s, int from, int to) {
        int m = 0;
        for (int i = from; i < to; i++) {
            m = Math.max(m, Math.abs(s.get(i)));
        }
        return m;
    }

    @Test
    void aKeyOnDampsTheSoundingNoteForSixtyTwoSamplesAtTheFastestRate() {
        // KSR on, block 7, F-number bit 8: key scale 15, so the damp runs at H = min(15, 12 + 3)
        // = 15, 2 steps (0.75 dB) a sample: from full level (0) past 123 in 62 samples, whatever
        // the sample counter. A note held at full level is keyed off and on again: it fades for
        // 62 samples, then the attack (rate 15: at once) restarts it at full level.
        int[] custom = {0x31, 0x31, 63, 0x00, 0xF0, 0xF0, 0x00, 0x00};
        String source = program(custom, 0x100, 7, 0x00).replace("  jmp pass", String.join("\n",
                "  ldy #4",
                "wait:",
                "  ldx #0",
                "inner:",
                "  dex",
                "  bne inner",
                "  dey",
                "  bne wait",
                "  lda #$20",
                "  sta $9010",
                "  lda #$0F",
                "  sta $9030",
                "  lda #$1F",
                "  sta $9030",
                "  jmp pass"));
        List<Integer> got = samples(HardwareProgram.onBoard(source, 85, 0), 200);
        int full = level(4096);
        assertTrue(Math.abs(got.get(0)) > 0, "the old note still sounds: " + got.subList(0, 8));
        int restart = -1;
        // Past 40 samples (30 dB down) the damped note is under full / 8: the first sample above is the restart.
        for (int i = 40; i < got.size() && restart < 0; i++) {
            restart = Math.abs(got.get(i)) > full / 8 ? i : -1;
        }
        // The list starts one or two samples after the key-on (the recording starts at the pass).
        assertTrue(restart >= 59 && restart <= 62, "restart at sample " + restart + ": " + got.subList(0, 80));
        assertTrue(peak(got, restart - 30, restart) < full / 16, "damped to silence before the restart");
        assertTrue(peak(got, restart, restart + 32) > full * 9 / 10, "full level again after the restart");
    }

    @Test
    void holdingTheChipInResetSilencesIt() {
        int[] custom = {0x21, 0x21, 20, 0x00, 0xF0, 0xF0, 0x00, 0x00};
        String source = program(custom, 0x120, 4, 0x02).replace("  jmp pass", "  lda #$40\n  sta $E000\n  jmp pass");
        assertEquals(List.of(new ExpansionSound.Run(0, 2_000)),
                ExpansionSound.record(HardwareProgram.onBoard(source, 85, 0), 2_000));
    }
}
