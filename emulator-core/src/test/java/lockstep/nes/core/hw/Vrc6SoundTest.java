package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.core.apu.ExpansionAudio;
import org.junit.jupiter.api.Test;

/**
 * The VRC6's pulses and sawtooth (NESdev "VRC6 audio"), written by a program and read at the
 * cartridge's audio pin every CPU cycle: a pulse steps its 16-position duty sequence every P + 1
 * cycles and sounds its volume while the position is at most the duty; the sawtooth adds its rate
 * on every other step of 14 and outputs the accumulator's top 5 bits; the DAC is linear, a pulse
 * at volume 15 as loud as a 2A03 pulse at volume 15 and inverted.
 */
class Vrc6SoundTest {
    private static int level(int dac) {
        return -dac * ExpansionAudio.APU_PULSE_FULL / 15;
    }

    @Test
    void aPulseSoundsItsVolumeForDutyPlusOneOfSixteenSteps() {
        // Duty 5 (6/16), volume 12, period 255: 256 cycles a step.
        HardwareProgram p = HardwareProgram.onBoard(String.join("\n",
                "reset:",
                "  lda #$5C",
                "  sta $9000",
                "  lda #$FF",
                "  sta $9001",
                "  lda #$80",
                "  sta $9002",
                "  jmp pass"), 24, 0);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 40_000));
        assertTrue(runs.size() >= 8, "runs: " + runs);
        for (ExpansionSound.Run r : runs) {
            if (r.level() == 0) {
                assertEquals(10 * 256, r.cycles(), "silent part: " + runs);
            } else {
                assertEquals(level(12), r.level(), runs.toString());
                assertEquals(6 * 256, r.cycles(), "sounding part: " + runs);
            }
        }
    }

    @Test
    void theSawtoothRisesInSevenLevelsOfTwoSteps() {
        // Rate 42 (the largest that does not wrap), period 99: 100 cycles a step.
        HardwareProgram p = HardwareProgram.onBoard(String.join("\n",
                "reset:",
                "  lda #42",
                "  sta $B000",
                "  lda #99",
                "  sta $B001",
                "  lda #$80",
                "  sta $B002",
                "  jmp pass"), 24, 0);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 20_000));
        int[] top5 = {0, 42 >> 3, 84 >> 3, 126 >> 3, 168 >> 3, 210 >> 3, 252 >> 3};
        assertTrue(runs.size() >= 60, "runs: " + runs.size());
        int at = -1;
        for (int i = 0; i < top5.length; i++) {
            if (level(top5[i]) == runs.get(0).level()) {
                at = i;
            }
        }
        assertTrue(at >= 0, "first level " + runs.get(0));
        for (ExpansionSound.Run r : runs) {
            assertEquals(level(top5[at]), r.level(), "level " + at + " of the ramp: " + runs);
            assertEquals(200, r.cycles());
            at = (at + 1) % top5.length;
        }
    }

    @Test
    void theFrequencyControlShiftsThePeriodsAndHalts() {
        // Mode bit (constant volume 15): no change; so watch the sawtooth: 16x shifts period $630 to $63.
        HardwareProgram p = HardwareProgram.onBoard(String.join("\n",
                "reset:",
                "  lda #$02",
                "  sta $9003",
                "  lda #42",
                "  sta $B000",
                "  lda #$30",
                "  sta $B001",
                "  lda #$86",
                "  sta $B002",
                "  jmp pass"), 24, 0);
        for (ExpansionSound.Run r : ExpansionSound.whole(ExpansionSound.record(p, 10_000))) {
            assertEquals(200, r.cycles());
        }
        HardwareProgram halted = HardwareProgram.onBoard(String.join("\n",
                "reset:",
                "  lda #42",
                "  sta $B000",
                "  lda #$80",
                "  sta $B002",
                "  ldx #200",
                "spin:",
                "  dex",
                "  bne spin",
                "  lda #$01",
                "  sta $9003",
                "  jmp pass"), 24, 0);
        List<ExpansionSound.Run> runs = ExpansionSound.record(halted, 10_000);
        assertEquals(1, runs.size(), "halted: " + runs);
        assertTrue(runs.get(0).level() != 0, "halted mid-ramp, above 0: " + runs);
    }

    @Test
    void vrc6bSwapsTheRegisterLines() {
        // Mapper 26: $9001 is register 2 and $9002 register 1.
        HardwareProgram p = HardwareProgram.onBoard(String.join("\n",
                "reset:",
                "  lda #$7F",
                "  sta $9000",
                "  lda #$FF",
                "  sta $9002",
                "  lda #$80",
                "  sta $9001",
                "  jmp pass"), 26, 0);
        for (ExpansionSound.Run r : ExpansionSound.whole(ExpansionSound.record(p, 40_000))) {
            assertEquals(8 * 256, r.cycles());
        }
    }
}
