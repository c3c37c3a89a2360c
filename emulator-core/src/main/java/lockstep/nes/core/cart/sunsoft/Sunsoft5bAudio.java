package lockstep.nes.core.cart.sunsoft;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.state.StateVisitor;

/**
 * The Sunsoft 5B's sound (NESdev "Sunsoft 5B audio"): a YM2149F core (AY-3-8910 family) run from
 * the CPU clock through its divide-by-2, so its tone, noise and envelope counters advance once
 * every 16 CPU cycles (a "tick"). $C000 selects a register (bits 4-7 nonzero: writes ignored),
 * $E000 writes it:
 * <pre>
 *  $00-$05  channel A/B/C tone periods (12 bits): the square flips every max(1, P) ticks
 *  $06      noise period (5 bits): the 17-bit LFSR steps every 2 max(1, P) ticks
 *  $07      --CB Acba: noise (C B A) and tone (c b a) disables
 *  $08-$0A  ---E VVVV: envelope instead of the volume
 *  $0B-$0C  envelope period (16 bits): one of its 32 steps every max(1, P) ticks
 *  $0D      envelope shape (continue, attack, alternate, hold); writing it restarts the envelope
 * </pre>
 * A channel sounds while (tone or tone disabled) and (noise or noise disabled). Its level is the
 * envelope's (0-31) or 2V + 1 for a volume V above 0, and the DAC is logarithmic: 1.5 dB a
 * level, 3 dB a volume step. Against the 2A03 (NESdev "NSFe", the mixe chunk's 5B default): a
 * channel at volume 12 is 1.3 dB quieter than a 2A03 pulse at volume 15 (measured at 12, not
 * 15, because the 5B's amplifier distorts near the top); the other levels follow from 1.5 dB a
 * level.
 */
public final class Sunsoft5bAudio extends ExpansionAudio {
    /** The level of volume 12 (2 x 12 + 1), the one NESdev's figure is measured at. */
    static final int REFERENCE_LEVEL = 25;
    /** Volume 12 against a 2A03 pulse at volume 15, in millibels. */
    static final int REFERENCE_MILLIBELS = -130;
    /** Millibels between two levels. */
    static final int LEVEL_MILLIBELS = 150;
    /** Amplitude of each level (0 silent), 1.5 dB apart, computed once. */
    private static final int[] LEVEL = new int[32];

    static {
        for (int k = 1; k < 32; k++) {
            LEVEL[k] = louder(APU_PULSE_FULL, REFERENCE_MILLIBELS + (k - REFERENCE_LEVEL) * LEVEL_MILLIBELS);
        }
    }

    private static final int TICK = 16;

    private final int[] regs = new int[16];
    private int select;
    /** CPU cycles since the last tick (0-15). */
    private int prescaler;
    private final int[] toneCounter = new int[3];
    private final boolean[] toneHigh = new boolean[3];
    private int noiseCounter;
    private int lfsr = 1;
    private int envelopeCounter;
    private int envelopeStep;
    private boolean envelopeAttack;
    private boolean envelopeHolding;

    @Override
    public void power() {
        java.util.Arrays.fill(regs, 0);
        select = 0;
        prescaler = 0;
        for (int i = 0; i < 3; i++) {
            toneCounter[i] = 0;
            toneHigh[i] = false;
        }
        noiseCounter = 0;
        lfsr = 1;
        envelopeCounter = 0;
        envelopeStep = 0;
        envelopeAttack = false;
        envelopeHolding = false;
    }

    /** $C000-$DFFF. */
    public void writeSelect(int value) {
        select = value & 0xFF;
    }

    /** $E000-$FFFF: the selected register, unless the select's high bits are set. */
    public void writeData(int value) {
        if ((select & 0xF0) != 0) {
            return;
        }
        catchUp();
        final int reg = select & 0x0F;
        regs[reg] = value & 0xFF;
        if (reg == 13) {
            envelopeCounter = 0;
            envelopeStep = 0;
            envelopeHolding = false;
            envelopeAttack = (value & 4) != 0;
        }
        changed();
    }

    private int tonePeriod(int i) {
        return Math.max(1, regs[2 * i] | (regs[2 * i + 1] & 0x0F) << 8);
    }

    private int noisePeriod() {
        return 2 * Math.max(1, regs[6] & 0x1F);
    }

    private int envelopePeriod() {
        return Math.max(1, regs[11] | regs[12] << 8);
    }

    /** Ticks until a counter that counts up to {@code period} reaches it. */
    private static int ticksTo(int counter, int period) {
        return counter >= period ? 1 : period - counter;
    }

    @Override
    protected void step() {
        if (++prescaler < TICK) {
            return;
        }
        prescaler = 0;
        for (int i = 0; i < 3; i++) {
            if (++toneCounter[i] >= tonePeriod(i)) {
                toneCounter[i] = 0;
                toneHigh[i] = !toneHigh[i];
            }
        }
        if (++noiseCounter >= noisePeriod()) {
            noiseCounter = 0;
            lfsr = (lfsr >> 1) | (((lfsr ^ (lfsr >> 3)) & 1) << 16);
        }
        if (!envelopeHolding && ++envelopeCounter >= envelopePeriod()) {
            envelopeCounter = 0;
            stepEnvelope();
        }
    }

    /** One of the envelope's 32 steps; at the end of a ramp the shape says what comes next. */
    private void stepEnvelope() {
        if (envelopeStep < 31) {
            envelopeStep++;
            return;
        }
        final int shape = regs[13];
        if ((shape & 8) == 0) {
            // No continue: silent from now on.
            envelopeAttack = false;
            envelopeHolding = true;
        } else if ((shape & 1) != 0) {
            // Hold: the last level, or its opposite when alternating.
            envelopeAttack ^= (shape & 2) != 0;
            envelopeHolding = true;
        } else {
            envelopeAttack ^= (shape & 2) != 0;
            envelopeStep = 0;
        }
    }

    private int envelopeLevel() {
        return envelopeAttack ? envelopeStep : 31 - envelopeStep;
    }

    @Override
    protected int output() {
        final int mixer = regs[7];
        final boolean noise = (lfsr & 1) != 0;
        int sum = 0;
        for (int i = 0; i < 3; i++) {
            final boolean tone = toneHigh[i] || (mixer & (1 << i)) != 0;
            final boolean noisy = noise || (mixer & (8 << i)) != 0;
            if (tone && noisy) {
                final int v = regs[8 + i];
                sum += LEVEL[(v & 0x10) != 0 ? envelopeLevel() : (v & 0x0F) == 0 ? 0 : 2 * (v & 0x0F) + 1];
            }
        }
        return sum;
    }

    @Override
    protected int quietSpan() {
        int ticks = ticksTo(noiseCounter, noisePeriod());
        for (int i = 0; i < 3; i++) {
            ticks = Math.min(ticks, ticksTo(toneCounter[i], tonePeriod(i)));
        }
        if (!envelopeHolding) {
            ticks = Math.min(ticks, ticksTo(envelopeCounter, envelopePeriod()));
        }
        // The cycle of the ticks-th tick is stepped; every cycle before it only counts.
        return TICK - prescaler - 1 + TICK * (ticks - 1);
    }

    @Override
    protected void skip(int n) {
        final int total = prescaler + n;
        final int ticks = total / TICK;
        prescaler = total % TICK;
        if (ticks > 0) {
            for (int i = 0; i < 3; i++) {
                toneCounter[i] += ticks;
            }
            noiseCounter += ticks;
            if (!envelopeHolding) {
                envelopeCounter += ticks;
            }
        }
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("audio.regs", regs, 0, 0xFF);
        select = s.u8("audio.select", select);
        prescaler = s.u8("audio.prescaler", prescaler, TICK - 1);
        s.ints("audio.toneCounter", toneCounter, 0, 0xFFF);
        toneHigh[0] = s.bool("audio.toneHighA", toneHigh[0]);
        toneHigh[1] = s.bool("audio.toneHighB", toneHigh[1]);
        toneHigh[2] = s.bool("audio.toneHighC", toneHigh[2]);
        noiseCounter = s.u8("audio.noiseCounter", noiseCounter, 63);
        lfsr = s.i32("audio.lfsr", lfsr, 0, 0x1FFFF);
        envelopeCounter = s.u16("audio.envelopeCounter", envelopeCounter);
        envelopeStep = s.u8("audio.envelopeStep", envelopeStep, 31);
        envelopeAttack = s.bool("audio.envelopeAttack", envelopeAttack);
        envelopeHolding = s.bool("audio.envelopeHolding", envelopeHolding);
    }
}
