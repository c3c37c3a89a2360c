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
    private static int level(int dac) {
        return dac * 6 * ExpansionAudio.APU_PULSE_FULL / 225;
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
