package lockstep.nes.core.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.apu.ExpansionAudio;
import org.junit.jupiter.api.Test;

/**
 * The Sunsoft 5B's YM2149F core (NESdev "Sunsoft 5B audio") written by a program ($C000 select,
 * $E000 data) and read at the cartridge's audio pin every CPU cycle: its counters advance every
 * 16 CPU cycles; a tone flips every P ticks, the noise LFSR (taps 0 and 3 of 17) steps every 2P,
 * the envelope every P; the DAC is logarithmic, 1.5 dB a level (3 dB a volume step).
 */
class Sunsoft5bSoundTest {
    /**
     * The amplitude of level k (1-31) of 32, 1.5 dB apart, volume 12 (level 25) 1.3 dB below a
     * 2A03 pulse at volume 15 (NESdev's relative level for the 5B).
     */
    private static int amplitude(int k) {
        double db = -1.3 + (k - 25) * 1.5;
        return k == 0 ? 0 : (int) StrictMath.round(ExpansionAudio.APU_PULSE_FULL * StrictMath.pow(10, db / 20));
    }

    @Test
    void volumeTwelveIsOnePointThreeDecibelsBelowA2A03PulseAtFifteen() {
        // Tone A only, period 100, volume 12: its high half-periods against the documented level.
        HardwareProgram p = writes(0, 100, 1, 0, 7, 0x3E, 8, 12);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 30_000));
        int high = 0;
        for (ExpansionSound.Run r : runs) {
            high = Math.max(high, r.level());
        }
        double db = 20 * Math.log10((double) high / ExpansionAudio.APU_PULSE_FULL);
        assertEquals(-1.3, db, 0.01, "volume 12 at " + high + " against " + ExpansionAudio.APU_PULSE_FULL);
        assertEquals(amplitude(25), high);
    }

    /** A program that writes (register, value) pairs through $C000/$E000, then passes. */
    private static HardwareProgram writes(int... pairs) {
        StringBuilder s = new StringBuilder("reset:\n");
        for (int i = 0; i < pairs.length; i += 2) {
            s.append("  lda #").append(pairs[i]).append("\n  sta $C000\n");
            s.append("  lda #").append(pairs[i + 1]).append("\n  sta $E000\n");
        }
        s.append("  jmp pass\n");
        return HardwareProgram.onBoard(s.toString(), 69, 0);
    }

    @Test
    void aToneFlipsEverySixteenTimesItsPeriodAtItsLogarithmicVolume() {
        // Tone A only (mixer %00111110), period 100, volume 7: level 15.
        HardwareProgram p = writes(0, 100, 1, 0, 7, 0x3E, 8, 7);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 30_000));
        assertTrue(runs.size() >= 10, runs.toString());
        for (ExpansionSound.Run r : runs) {
            assertEquals(1600, r.cycles(), runs.toString());
            assertTrue(r.level() == 0 || r.level() == amplitude(15), "level " + r.level() + " vs " + amplitude(15));
        }
    }

    @Test
    void theEnvelopeRampsUpAndDownThroughItsThirtyTwoLevels() {
        // Channel A on the envelope with tone and noise disabled (always sounding); shape 1110
        // (continue, attack, alternate): /\/\, period 1: a step every tick.
        HardwareProgram p = writes(7, 0x3F, 8, 0x10, 11, 1, 12, 0, 13, 0x0E);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 6_000));
        assertTrue(runs.size() >= 100, "runs " + runs.size());
        // The envelope's levels in order: 0..31 up, 31..0 down; the ends are held two steps.
        int index = -1;
        for (int k = 0; k < 32; k++) {
            if (amplitude(k) == runs.get(0).level()) {
                index = k;
            }
        }
        assertTrue(index >= 0);
        int direction = runs.get(1).level() > runs.get(0).level() ? 1 : -1;
        for (ExpansionSound.Run r : runs) {
            assertEquals(amplitude(index), r.level(), runs.toString());
            assertEquals(index == 0 || index == 31 ? 32 : 16, r.cycles(), "level " + index + ": " + runs);
            if (index + direction < 0 || index + direction > 31) {
                direction = -direction;
            }
            index += direction;
        }
    }

    @Test
    void theNoiseIsASeventeenBitLfsrSteppedEveryTwoPeriods() {
        // Noise on channel A only (mixer %00110111), noise period 1: a step every 32 CPU cycles.
        HardwareProgram p = writes(6, 1, 7, 0x37, 8, 15);
        List<ExpansionSound.Run> runs = ExpansionSound.whole(ExpansionSound.record(p, 200_000));
        List<Integer> bits = new ArrayList<>();
        for (ExpansionSound.Run r : runs) {
            assertEquals(0, r.cycles() % 32, "runs of whole steps: " + r);
            assertTrue(r.level() == 0 || r.level() == amplitude(31));
            for (int i = 0; i < r.cycles() / 32; i++) {
                bits.add(r.level() == 0 ? 0 : 1);
            }
        }
        assertTrue(bits.size() > 4000, "steps " + bits.size());
        // The output bit is bit 0 of the LFSR, and bit 16 takes bit 0 XOR bit 3: b[n+17] = b[n] ^ b[n+3].
        for (int n = 0; n + 17 < bits.size(); n++) {
            assertEquals(bits.get(n) ^ bits.get(n + 3), (int) bits.get(n + 17), "step " + n);
        }
    }

    @Test
    void aSelectWithHighBitsSetIgnoresTheWrite() {
        // Volume written through select $18 (high bits set): channel A stays silent.
        HardwareProgram p = writes(7, 0x3F, 0x18, 15);
        List<ExpansionSound.Run> runs = ExpansionSound.record(p, 2_000);
        assertEquals(List.of(new ExpansionSound.Run(0, 2_000)), runs);
    }
}
