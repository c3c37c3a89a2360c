package lockstep.nes.core.cart.nintendo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Roms;
import lockstep.nes.state.DigestTerm;
import org.junit.jupiter.api.Test;

/**
 * The MMC5's sound unit driven by hand: the samples against the documented behaviour (pulse
 * steps as loud as the 2A03's, inverted; 240 Hz envelope and length; no sweep muting; the 8-bit
 * PCM and its IRQ), and its quiet spans against stepping.
 */
class Mmc5AudioTest {
    /** Pulse levels summing to {@code n}: a pulse at volume 15 as loud as a 2A03 pulse at 15 (NESdev: 0 dB), inverted. */
    private static int pulses(int n) {
        return -n * ExpansionAudio.APU_PULSE_FULL / 15;
    }

    private static Mmc5Audio audio() {
        Mmc5Audio a = new Mmc5Audio();
        a.power();
        return a;
    }

    @Test
    void aPulseAtConstantVolumeIsAnInvertedSquareOfItsDuty() {
        Mmc5Audio a = audio();
        a.write(0x5015, 1);
        a.write(0x5000, 0xB0 | 15); // duty 2 (50%), length halted, constant volume 15
        a.write(0x5002, 8);
        a.write(0x5003, 0);
        int high = 0;
        int cycles = 8 * 18; // 8 sequencer steps of (8 + 1) * 2 CPU cycles
        for (int i = 0; i < cycles; i++) {
            a.step();
            int out = a.output();
            assertTrue(out == 0 || out == pulses(15), "sample " + out);
            if (out != 0) {
                high++;
            }
        }
        assertEquals(cycles / 2, high);
        assertEquals(1, a.readStatus());
    }

    @Test
    void periodsUnderEightAreNotSilencedAndThereIsNoSweep() {
        Mmc5Audio a = audio();
        a.write(0x5015, 2);
        a.write(0x5004, 0xB0 | 6);
        a.write(0x5005, 0x8F); // a 2A03 sweep this strong would mute the channel
        a.write(0x5006, 2);
        a.write(0x5007, 0);
        boolean sawHigh = false;
        boolean sawLow = false;
        for (int i = 0; i < 64; i++) {
            a.step();
            sawHigh |= a.output() == pulses(6);
            sawLow |= a.output() == 0;
        }
        assertTrue(sawHigh && sawLow);
    }

    @Test
    void lengthAndEnvelopeRunAt240Hz() {
        Mmc5Audio a = audio();
        a.write(0x5015, 1);
        a.write(0x5000, 0x30); // duty 0, halted, constant 0: silent
        a.write(0x5000, 0x10 | 9); // not halted, constant volume 9
        a.write(0x5003, 0); // length index 0: 10
        for (int q = 0; q < 9; q++) {
            for (int i = 0; i < Mmc5Audio.QUARTER_FRAME; i++) {
                a.step();
            }
        }
        assertEquals(1, a.readStatus(), "one clock left after 9 of 10");
        for (int i = 0; i < Mmc5Audio.QUARTER_FRAME; i++) {
            a.step();
        }
        assertEquals(0, a.readStatus());
        // The envelope: decay from 15, one step per 240 Hz clock with period 0.
        a.write(0x5000, 0xE0); // duty 3, halted (looping), envelope period 0
        a.write(0x5003, 0);
        int peak = 0;
        for (int i = 0; i < 3 * Mmc5Audio.QUARTER_FRAME; i++) {
            a.step();
            peak = Math.min(peak, a.output());
        }
        assertEquals(pulses(15), peak);
        int last = 0;
        for (int i = 0; i < 200; i++) {
            a.step();
            last = Math.min(last, a.output());
        }
        assertEquals(pulses(13), last);
        a.write(0x5015, 0); // disabling clears the length
        assertEquals(0, a.readStatus());
        assertEquals(0, a.output());
    }

    @Test
    void pcmWriteModeAndItsIrq() {
        Mmc5Audio a = audio();
        a.write(0x5011, 0x80);
        assertEquals(-0x80 * Mmc5Audio.PCM_STEP, a.output());
        a.write(0x5011, 0); // $00: the DAC keeps its value, the IRQ trips (not enabled)
        assertEquals(-0x80 * Mmc5Audio.PCM_STEP, a.output());
        assertFalse(a.irq());
        a.write(0x5010, 0x80);
        assertTrue(a.irq());
        assertEquals(0x80, a.readPcmStatus());
        assertFalse(a.irq());
        a.write(0x5011, 0x40);
        assertEquals(-0x40 * Mmc5Audio.PCM_STEP, a.output());
    }

    @Test
    void pcmReadModeTakesTheBytesTheCpuReadsFrom8000ToBfff() {
        Mapper m = Roms.mapper(Roms.cart(5, 256, 8));
        Mmc5Audio a = (Mmc5Audio) m.expansionAudio();
        m.cpuWrite(0x5100, 3);
        m.cpuWrite(0x5114, 0x80 | 7);
        m.cpuWrite(0x5010, 0x81); // read mode, IRQ on
        m.cpuWrite(0x5011, 0x22); // ignored in read mode
        assertEquals(0, a.output());
        m.cpuRead(0x8000); // PRG bank 7: its bytes are 7
        assertEquals(-7 * Mmc5Audio.PCM_STEP, a.output());
        m.cpuRead(0xC000); // not in $8000-$BFFF
        assertEquals(-7 * Mmc5Audio.PCM_STEP, a.output());
        m.cpuWrite(0x5115, 0x80); // bank 0 at $A000: a $00
        m.cpuRead(0xA000);
        assertTrue(m.irq());
        assertEquals(0x81, m.cpuRead(0x5010));
        assertFalse(m.irq());
    }

    @Test
    void quietSpansEqualStepping() {
        Random r = new Random(5);
        Mmc5Audio stepped = audio();
        Mmc5Audio skipped = audio();
        for (int round = 0; round < 400; round++) {
            int addr = 0x5000 + r.nextInt(8);
            int value = r.nextInt(256);
            if (r.nextInt(6) == 0) {
                addr = 0x5015;
                value = r.nextInt(4);
            }
            stepped.write(addr, value);
            skipped.write(addr, value);
            int cycles = r.nextInt(3000);
            while (cycles > 0) {
                int span = Math.min(cycles, skipped.quietSpan());
                if (span > 0) {
                    int out = skipped.output();
                    skipped.skip(span);
                    for (int i = 0; i < span; i++) {
                        stepped.step();
                        assertEquals(out, stepped.output(), "quiet cycle");
                    }
                    cycles -= span;
                } else {
                    skipped.step();
                    stepped.step();
                    cycles--;
                }
                assertEquals(DigestTerm.of(stepped), DigestTerm.of(skipped));
            }
        }
    }
}
