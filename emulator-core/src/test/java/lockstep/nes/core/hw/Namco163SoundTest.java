package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.core.apu.ExpansionAudio;
import org.junit.jupiter.api.Test;

/**
 * The Namco 163's wavetable channels (NESdev "Namco 163 audio") set up by a program through the
 * $F800 address port and the $4800 data port and read at the cartridge's audio pin every CPU
 * cycle: one channel is updated every 15 cycles, from channel 8 down through the enabled ones,
 * its phase advanced by its frequency (16.16 samples, modulo the length) and its
 * (sample - 8) x volume held on the DAC until the next channel's turn.
 */
class Namco163SoundTest {
    /**
     * NESdev's mixing levels by NES 2.0 submapper (the middle of each documented range, dB over
     * the 2A03 for a full-swing channel at volume 15 against a 2A03 pulse at volume 15); NaN: no
     * sound. Submapper 0 (unspecified) takes submapper 3's.
     */
    private static final double[] SUBMAPPER_DB = {12.0, Double.NaN, Double.NaN, 12.0, 16.5, 18.75};

    /** The DAC's 225-step swing in the mixer's units on a board of this submapper. */
    private static int swing(int submapper) {
        return (int) StrictMath.round(ExpansionAudio.APU_PULSE_FULL * StrictMath.pow(10, SUBMAPPER_DB[submapper] / 20));
    }

    private static int level(int dac) {
        return dac * swing(0) / 225;
    }

    /** Writes the ramp wave (samples 0-15, twice) at RAM 0, then the given bytes from $40 on. */
    private static String program(int[] registers) {
        StringBuilder s = new StringBuilder(String.join("\n",
                "reset:",
                "  lda #$00",
                "  sta $E000",
                "  lda #$80",
                "  sta $F800",
                "  ldx #0",
                "wave:",
                "  lda ramp,x",
                "  sta $4800",
                "  inx",
                "  cpx #16",
                "  bne wave",
                "  lda #$C0",
                "  sta $F800",
                "  ldx #0",
                "regs:",
                "  lda registers,x",
                "  sta $4800",
                "  inx",
                "  cpx #64",
                "  bne regs",
                "  jmp pass",
                "ramp:",
                "  .byte $10, $32, $54, $76, $98, $BA, $DC, $FE, $10, $32, $54, $76, $98, $BA, $DC, $FE",
                "registers:",
                ""));
        for (int i = 0; i < 64; i++) {
            s.append("  .byte ").append(registers[i]).append('\n');
        }
        return s.toString();
    }

    /** Channel n's (1-8) registers in the 64 bytes from $40: frequency, length, volume. */
    private static void channel(int[] regs, int n, int frequency, int length, int volume) {
        int b = 8 * (n - 1);
        regs[b] = frequency & 0xFF;
        regs[b + 2] = (frequency >> 8) & 0xFF;
        regs[b + 4] = (256 - length) | (frequency >> 16);
        regs[b + 7] = (regs[b + 7] & 0xF0) | volume;
    }

    @Test
    void oneChannelStepsItsWaveEveryFifteenCycles() {
        int[] regs = new int[64];
        channel(regs, 8, 0x10000, 32, 15); // one sample an update, 32-sample wave
        HardwareProgram p = HardwareProgram.onBoard(program(regs), 19, 0);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 3_000));
        assertTrue(runs.size() > 150, "runs " + runs.size());
        int sample = -1;
        for (int s = 0; s < 16; s++) {
            if (level((s - 8) * 15) == runs.get(0).level()) {
                sample = s;
            }
        }
        assertTrue(sample >= 0, runs.get(0).toString());
        for (ExpansionSound.Run r : runs) {
            assertEquals(level((sample - 8) * 15), r.level(), "sample " + sample + ": " + runs);
            assertEquals(15, r.cycles());
            sample = (sample + 1) & 15;
        }
    }

    @Test
    void enabledChannelsShareTheDacInTurn() {
        // Two channels ($7F bits 4-6 = 1): channel 8 (volume 15, a sample an update) and channel 7
        // (volume 0) take turns, 15 cycles each: channel 8 advances once per 30 cycles.
        int[] regs = new int[64];
        channel(regs, 8, 0x10000, 32, 15);
        channel(regs, 7, 0x10000, 32, 0);
        regs[63] |= 0x10;
        HardwareProgram p = HardwareProgram.onBoard(program(regs), 19, 0);
        // The DAC in 15-cycle turns: channel 8's every other turn, rising a sample a turn; 0 between.
        List<Integer> turns = new java.util.ArrayList<>();
        for (ExpansionSound.Run r : ExpansionSound.whole(ExpansionSound.record(p, 3_000))) {
            assertEquals(0, r.cycles() % 15, "whole turns: " + r);
            for (int i = 0; i < r.cycles() / 15; i++) {
                turns.add(r.level());
            }
        }
        assertTrue(turns.size() > 150, "turns " + turns.size());
        int first = turns.get(0) != 0 || turns.get(2) != 0 ? 0 : 1;
        int sample = turns.get(first) / level(15) + 8;
        for (int i = first; i + 1 < turns.size(); i += 2) {
            assertEquals(level((sample - 8) * 15), (int) turns.get(i), "turn " + i + ": " + turns);
            assertEquals(0, (int) turns.get(i + 1), "channel 7's turn, volume 0");
            sample = (sample + 1) & 15;
        }
    }

    @Test
    void theFrequencyIsSixteenPointSixteenSamplesModuloTheLength() {
        // Frequency 0x8000: half a sample an update; a 4-sample wave over samples 4-7 (offset 4).
        int[] regs = new int[64];
        channel(regs, 8, 0x8000, 4, 15);
        regs[62] = 4;
        HardwareProgram p = HardwareProgram.onBoard(program(regs), 19, 0);
        for (ExpansionSound.Run r : ExpansionSound.whole(ExpansionSound.record(p, 3_000))) {
            assertEquals(30, r.cycles());
            int s = r.level() / level(15) + 8;
            assertTrue(s >= 4 && s <= 7, "samples 4-7 only: " + s);
        }
    }

    /** A full-swing square (samples 0 and 15, alternating) on channel 8 at volume 15, on a board of this submapper. */
    private static List<ExpansionSound.Run> square(int submapper) {
        int[] regs = new int[64];
        channel(regs, 8, 0x10000, 32, 15);
        regs[62] = 16; // the wave from sample 16: $F0 bytes, samples 0 and 15
        String source = program(regs).replace("  jmp pass", String.join("\n",
                "  lda #$88",
                "  sta $F800",
                "  ldx #16",
                "  lda #$F0",
                "sq:",
                "  sta $4800",
                "  dex",
                "  bne sq",
                "  jmp pass"));
        return ExpansionSound.record(HardwareProgram.onBoard(source, 19, submapper), 3_000);
    }

    private static void assertLevel(int submapper, double lowDb, double highDb) {
        List<ExpansionSound.Run> runs = ExpansionSound.whole(square(submapper));
        int high = Integer.MIN_VALUE;
        int low = Integer.MAX_VALUE;
        for (ExpansionSound.Run r : runs) {
            high = Math.max(high, r.level());
            low = Math.min(low, r.level());
        }
        assertEquals(105 * swing(submapper) / 225, high, "sample 15 at volume 15: " + runs);
        assertEquals(-120 * swing(submapper) / 225, low, "sample 0 at volume 15");
        double db = 20 * Math.log10((double) (high - low) / ExpansionAudio.APU_PULSE_FULL);
        assertTrue(db >= lowDb && db <= highDb, "submapper " + submapper + ": " + db + " dB, NESdev " + lowDb + "-" + highDb);
    }

    @Test
    void submapper3IsElevenToThirteenDecibelsLouderThanThe2A03() {
        assertLevel(3, 11.0, 13.0);
    }

    @Test
    void submapper4IsSixteenToSeventeenDecibelsLouderThanThe2A03() {
        assertLevel(4, 16.0, 17.0);
    }

    @Test
    void submapper5IsEighteenToNineteenAndAHalfDecibelsLouderThanThe2A03() {
        assertLevel(5, 18.0, 19.5);
    }

    @Test
    void submapper0LeavesTheLevelUnspecifiedAndTakesSubmapper3s() {
        assertLevel(0, 11.0, 13.0);
        assertEquals(square(3), square(0));
    }

    @Test
    void submappers1And2HaveNoExpansionSound() {
        for (int sub = 1; sub <= 2; sub++) {
            assertEquals(List.of(new ExpansionSound.Run(0, 3_000)), square(sub), "submapper " + sub);
        }
        assertTrue(square(3).size() > 100, "the same program sounds on submapper 3");
    }

    @Test
    void submapper2AndTheDisableBitAreSilent() {
        int[] regs = new int[64];
        channel(regs, 8, 0x10000, 32, 15);
        HardwareProgram unwired = HardwareProgram.onBoard(program(regs), 19, 2);
        assertEquals(List.of(new ExpansionSound.Run(0, 1_000)), ExpansionSound.record(unwired, 1_000));
        HardwareProgram disabled = HardwareProgram.onBoard(
                program(regs).replace("  jmp pass", "  lda #$40\n  sta $E000\n  jmp pass"), 19, 0);
        assertEquals(List.of(new ExpansionSound.Run(0, 1_000)), ExpansionSound.record(disabled, 1_000));
    }
}
