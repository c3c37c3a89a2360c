package lockstep.nes.core.cart.konami;

import lockstep.nes.core.cart.part.PeriodicSound;
import lockstep.nes.state.StateVisitor;

/**
 * The VRC7's FM sound (NESdev "VRC7 audio"): a YM2413 (OPLL) derivative with six two-operator
 * channels and no rhythm mode, run from twice the CPU clock; one sample of every channel comes
 * every 72 of its clocks, 36 CPU cycles, and is held on the output until the next.
 * <pre>
 *  $00-$07 the custom instrument (modulator, carrier): AM VIB EG KSR MULT; KSL TL (modulator);
 *          KSL, carrier/modulator half-sine, feedback; AR DR; SL RR
 *  $10-$15 F-number bits 0-7     $20-$25 ..SK BBBF: sustain, key on, block, F-number bit 8
 *  $30-$35 instrument (1-15 from the ROM, 0 the custom one), volume (3 dB steps)
 * </pre>
 * Integer-exact: the phase is a 19-bit accumulator advanced by (F-number &lt;&lt; block) x MULT / 2
 * a sample (MULT is twice the multiplier, 1 for x1/2: a multiplier-1 operator sounds at NESdev's
 * 49716 x F-number / 2^(19 - block) Hz) (vibrato adds to the F-number); an operator's output is the exponential of a log-sine
 * lookup plus its attenuation (envelope, total level, key scaling, tremolo; 0.375 dB a step,
 * 7 bits), as the chip computes it from its ROM tables (here computed once with StrictMath);
 * the modulator feeds back its last two outputs and phase-modulates the carrier. Envelopes: see
 * {@link #envelopeStep}; a key-on first damps the old sound (rate 12) before the attack. Against the 2A03
 * (NESdev "NSFe", the mixe chunk's VRC7 default): a full-volume sine is 11 dB louder than a
 * 2A03 pulse at volume 15, peak to peak.
 */
public final class Vrc7Audio extends PeriodicSound {
    /** CPU cycles per sample (72 clocks at twice the CPU clock). */
    static final int SAMPLE_CYCLES = 36;

    /** The fixed instruments 1-15 (NESdev's VRC7 patch set), 8 bytes each as registers $00-$07. */
    private static final int[][] ROM = {
        {0x03, 0x21, 0x05, 0x06, 0xE8, 0x81, 0x42, 0x27},
        {0x13, 0x41, 0x14, 0x0D, 0xD8, 0xF6, 0x23, 0x12},
        {0x11, 0x11, 0x08, 0x08, 0xFA, 0xB2, 0x20, 0x12},
        {0x31, 0x61, 0x0C, 0x07, 0xA8, 0x64, 0x61, 0x27},
        {0x32, 0x21, 0x1E, 0x06, 0xE1, 0x76, 0x01, 0x28},
        {0x02, 0x01, 0x06, 0x00, 0xA3, 0xE2, 0xF4, 0xF4},
        {0x21, 0x61, 0x1D, 0x07, 0x82, 0x81, 0x11, 0x07},
        {0x23, 0x21, 0x22, 0x17, 0xA2, 0x72, 0x01, 0x17},
        {0x35, 0x11, 0x25, 0x00, 0x40, 0x73, 0x72, 0x01},
        {0xB5, 0x01, 0x0F, 0x0F, 0xA8, 0xA5, 0x51, 0x02},
        {0x17, 0xC1, 0x24, 0x07, 0xF8, 0xF8, 0x22, 0x12},
        {0x71, 0x23, 0x11, 0x06, 0x65, 0x74, 0x18, 0x16},
        {0x01, 0x02, 0xD3, 0x05, 0xC9, 0x95, 0x03, 0x02},
        {0x61, 0x63, 0x0C, 0x00, 0x94, 0xC0, 0x33, 0xF6},
        {0x21, 0x72, 0x0D, 0x00, 0xC1, 0xD5, 0x56, 0x06},
    };

    /** -log2(sin) of a quarter wave, 256 steps, in 1/256 octaves. */
    static final int[] LOG_SIN = new int[256];
    /** 2^(-i/256) x 2048: the exponential of the fraction. */
    static final int[] EXP = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            LOG_SIN[i] = (int) StrictMath.round(-StrictMath.log(StrictMath.sin((i + 0.5) * StrictMath.PI / 512))
                    / StrictMath.log(2) * 256);
            EXP[i] = (int) StrictMath.round(StrictMath.pow(2, -i / 256.0) * 2048);
        }
    }

    /** MULT as twice the multiplier (1/2, 1, 2, ... 15). */
    private static final int[] MULTIPLY = {1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 20, 24, 24, 30, 30};
    /** Key scaling of the level at block 7, by F-number bits 5-8, in 0.375 dB steps (6 dB an octave). */
    private static final int[] KSL = {0, 24, 32, 37, 40, 43, 45, 47, 48, 50, 51, 52, 53, 54, 55, 56};
    /** The envelope's step pattern for each low rate (the key scale's low 2 bits): 8 steps of 0 or 1. */
    private static final int[][] EG_STEPS = {
        {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 1, 1, 0, 1}, {0, 1, 1, 1, 0, 1, 1, 1}, {0, 1, 1, 1, 1, 1, 1, 1},
    };
    /** Vibrato: the F-number's top 3 bits times this, halved, in 8 steps of 1024 samples (about 6 Hz). */
    private static final int[] VIBRATO = {0, 1, 2, 1, 0, -1, -2, -1};

    static final int ATTACK = 0;
    static final int DECAY = 1;
    static final int SUSTAIN = 2;
    static final int RELEASE = 3;
    /** After a key-on: the old sound damped at rate 12 until the envelope reaches {@link #DAMP_END}. */
    static final int DAMP = 4;
    /** The rate (0-15) of the damp phase. */
    static final int DAMP_RATE = 12;
    /** The attenuation at which the damp phase ends and the attack starts (four steps short of silence). */
    static final int DAMP_END = 123;
    /** Tremolo: a triangle of 210 steps, one every 64 samples (3.7 Hz). */
    private static final int AM_STEPS = 210;
    private static final int AM_DIVIDER = 64;

    /** A full-volume sine against a 2A03 pulse at volume 15, in millibels. */
    static final int LEVEL_MILLIBELS = 1100;
    /** A full-volume carrier's peak to peak (-4096 to 4096) in the mixer's units. */
    static final int FULL_SWING = louder(APU_PULSE_FULL, LEVEL_MILLIBELS);

    private final int[] regs = new int[0x40];
    private int select;
    /** $E000 bit 6: the chip held in reset, silent. */
    private boolean held;
    /** The output of the last sample, summed over the channels (each carrier -4096..4096). */
    private int sample;
    // Per operator, channel c's modulator at 2c and carrier at 2c + 1.
    private final int[] phase = new int[12];
    private final int[] envelope = new int[12];
    private final int[] envelopeState = new int[12];
    /** The modulators' last two outputs (feedback), channel c's at 2c and 2c + 1. */
    private final int[] feedback = new int[12];
    private int envelopeCounter;
    private int amCounter;
    private int pmCounter;

    public Vrc7Audio() {
        super(SAMPLE_CYCLES);
    }

    @Override
    public void power() {
        java.util.Arrays.fill(regs, 0);
        select = 0;
        held = false;
        restartPeriod();
        sample = 0;
        java.util.Arrays.fill(phase, 0);
        java.util.Arrays.fill(envelope, 127);
        java.util.Arrays.fill(envelopeState, RELEASE);
        java.util.Arrays.fill(feedback, 0);
        envelopeCounter = 0;
        amCounter = 0;
        pmCounter = 0;
    }

    /** $9010: the register written next. */
    public void writeSelect(int value) {
        select = value & 0xFF;
    }

    /** $9030: the selected register. */
    public void writeData(int value) {
        catchUp();
        final int reg = select & 0x3F;
        final int old = regs[reg];
        regs[reg] = value & 0xFF;
        if (reg >= 0x20 && reg <= 0x25) {
            final int ch = reg - 0x20;
            final boolean wasOn = (old & 0x10) != 0;
            final boolean on = (value & 0x10) != 0;
            if (on && !wasOn) {
                // Both operators damp first; the phases restart when the carrier's damp ends.
                envelopeState[2 * ch] = DAMP;
                envelopeState[2 * ch + 1] = DAMP;
            } else if (!on && wasOn) {
                // Only the carrier releases; the modulator's envelope stops where it is (rate 0 while keyed off).
                envelopeState[2 * ch + 1] = RELEASE;
            }
        }
        changed();
    }

    /** $E000 bit 6: while set the chip is held in reset and silent. */
    void writeReset(boolean reset) {
        catchUp();
        if (reset) {
            power();
        }
        held = reset;
        changed();
    }

    /** Byte {@code k} (0-7) of channel {@code ch}'s instrument. */
    private int patch(int ch, int k) {
        final int instrument = regs[0x30 + ch] >> 4;
        return instrument == 0 ? regs[k] : ROM[instrument - 1][k];
    }

    @Override
    protected boolean stopped() {
        return held;
    }

    /** One sample: the LFOs and envelope counter advance, every operator runs. */
    @Override
    protected void update() {
        envelopeCounter = (envelopeCounter + 1) & 0x3FFFF;
        amCounter = amCounter + 1 == AM_STEPS * AM_DIVIDER ? 0 : amCounter + 1;
        pmCounter = (pmCounter + 1) & 0x1FFF;
        final int amStep = amCounter / AM_DIVIDER;
        final int tremolo = (amStep < AM_STEPS / 2 ? amStep : AM_STEPS - 1 - amStep) >> 3;
        final int vibrato = VIBRATO[pmCounter >> 10];
        int sum = 0;
        for (int ch = 0; ch < 6; ch++) {
            sum += channel(ch, tremolo, vibrato);
        }
        sample = sum;
    }

    /** Runs channel {@code ch}'s two operators for one sample; returns the carrier's output. */
    private int channel(int ch, int tremolo, int vibrato) {
        final int fnum = regs[0x10 + ch] | (regs[0x20 + ch] & 1) << 8;
        final int block = (regs[0x20 + ch] >> 1) & 7;
        final boolean sustainOn = (regs[0x20 + ch] & 0x20) != 0;
        final boolean keyOn = (regs[0x20 + ch] & 0x10) != 0;
        final int m = 2 * ch;
        final int c = m + 1;
        // The envelopes first: the carrier's damp ending restarts both phases before they advance.
        envelopeStep(m, patch(ch, 0), fnum, block, keyOn, false, patch(ch, 4), patch(ch, 6));
        envelopeStep(c, patch(ch, 1), fnum, block, true, sustainOn, patch(ch, 5), patch(ch, 7));
        // The modulator, with feedback from its last two outputs.
        advance(m, patch(ch, 0), fnum, block, vibrato);
        final int fb = patch(ch, 3) & 7;
        int modIndex = phase[m] >> 9;
        if (fb != 0) {
            modIndex += (feedback[m] + feedback[m + 1]) >> (9 - fb);
        }
        final int modLevel = level(patch(ch, 0), (patch(ch, 2) & 0x3F) << 1, patch(ch, 2) >> 6, fnum, block, tremolo,
                envelope[m]);
        final int modOut = operator(modIndex, modLevel, (patch(ch, 3) & 0x08) != 0);
        feedback[m + 1] = feedback[m];
        feedback[m] = modOut;
        // The carrier, phase-modulated by the modulator.
        advance(c, patch(ch, 1), fnum, block, vibrato);
        final int carLevel = level(patch(ch, 1), (regs[0x30 + ch] & 0x0F) << 3, patch(ch, 3) >> 6, fnum, block,
                tremolo, envelope[c]);
        return operator((phase[c] >> 9) + (modOut >> 1), carLevel, (patch(ch, 3) & 0x10) != 0);
    }

    /** An operator's phase, one sample on. */
    private void advance(int op, int flags, int fnum, int block, int vibrato) {
        int f = fnum;
        if ((flags & 0x40) != 0) {
            f += ((fnum >> 6) * vibrato) >> 1;
        }
        phase[op] = (phase[op] + ((f << block) * MULTIPLY[flags & 0x0F] >> 1)) & 0x7FFFF;
    }

    /**
     * An operator's envelope, one sample on (YM2413): the state's rate R (0-15: attack AR, decay
     * DR, sustain 0 for a sustained instrument else RR, release 5 with the channel's sustain bit,
     * else RR for a sustained instrument, else 7; damp 12; 0 for a keyed-off modulator) and the
     * key scale K ((block, F-number bit 8), or block / 2 without KSR) give a high rate
     * H = min(15, R + K / 4) and a low rate K &amp; 3, which picks a step pattern. Below H = 12 (13
     * outside the attack) a step comes on every 2^(13 - H)-th value of the sample counter, the
     * pattern's (counter &gt;&gt; (13 - H)) &amp; 7-th; above, every sample, from counter bits 0-3.
     * A decay step adds 0-2 to the attenuation (up to 127); an attack step of size s takes
     * (env &gt;&gt; s) + 1 off it (s 4 below H = 12, 4, 3, 2 minus the pattern at H = 12, 13, 14;
     * H = 15 attacks at once). The damp ends at {@link #DAMP_END}, on a counter value the rate
     * steps on: the attack starts (or at H = 15 the decay, from 0), and a carrier's damp ending
     * restarts both operators' phases.
     */
    private void envelopeStep(int op, int flags, int fnum, int block, boolean keyOn, boolean sustainOn, int adr,
            int slr) {
        final int state = envelopeState[op];
        final boolean sustained = (flags & 0x20) != 0;
        final int r;
        if (!keyOn) {
            r = 0;
        } else {
            switch (state) {
                case ATTACK -> r = adr >> 4;
                case DECAY -> r = adr & 0x0F;
                case SUSTAIN -> r = sustained ? 0 : slr & 0x0F;
                case RELEASE -> r = sustainOn ? 5 : sustained ? slr & 0x0F : 7;
                default -> r = DAMP_RATE;
            }
        }
        final int ksr = (flags & 0x10) != 0 ? block << 1 | fnum >> 8 : block >> 1;
        final int high = r == 0 ? 0 : Math.min(15, r + (ksr >> 2));
        final int low = ksr & 3;
        final int counter = envelopeCounter;
        int env = envelope[op];
        final int mask;
        if (state == ATTACK) {
            mask = high > 0 && high < 12 ? (1 << (13 - high)) - 1 : 0;
            if (env > 0 && high > 0 && (counter & mask & ~3) == 0) {
                final int size = attackStep(high, low, counter);
                if (size > 0) {
                    env = Math.max(0, env - (env >> size) - 1);
                }
            }
        } else {
            mask = high < 13 ? (1 << (13 - high)) - 1 : 0;
            if (high > 0 && (counter & mask) == 0) {
                env = Math.min(127, env + decayStep(high, low, counter));
            }
        }
        envelope[op] = env;
        switch (state) {
            case DAMP -> {
                if (env >= DAMP_END && (counter & mask) == 0) {
                    if (Math.min(15, (adr >> 4) + (ksr >> 2)) == 15) {
                        envelopeState[op] = DECAY;
                        envelope[op] = 0;
                    } else {
                        envelopeState[op] = ATTACK;
                    }
                    if ((op & 1) != 0) {
                        phase[op] = 0;
                        phase[op - 1] = 0;
                    }
                }
            }
            case ATTACK -> {
                if (env == 0) {
                    envelopeState[op] = DECAY;
                }
            }
            case DECAY -> {
                if (env >> 3 == slr >> 4) {
                    envelopeState[op] = SUSTAIN;
                }
            }
            default -> {
            }
        }
    }

    /** The size s of an attack step at high rate {@code high} (0 for none). */
    private static int attackStep(int high, int low, int counter) {
        final int[] pattern = EG_STEPS[low];
        return switch (high) {
            case 0, 15 -> 0;
            case 12 -> 4 - pattern[(counter & 0xC) >> 1];
            case 13 -> 3 - pattern[(counter & 0xC) >> 1];
            case 14 -> 2 - pattern[(counter & 0xC) >> 1];
            default -> pattern[(counter >> (13 - high)) & 7] != 0 ? 4 : 0;
        };
    }

    /** A decay, sustain, release or damp step at high rate {@code high}: 0-2 steps of attenuation. */
    private static int decayStep(int high, int low, int counter) {
        final int[] pattern = EG_STEPS[low];
        return switch (high) {
            case 0 -> 0;
            case 13 -> pattern[((counter & 0xC) >> 1) | (counter & 1)];
            case 14 -> pattern[(counter & 0xC) >> 1] + 1;
            case 15 -> 2;
            default -> pattern[(counter >> (13 - high)) & 7];
        };
    }

    /** An operator's attenuation (0-127, 0.375 dB steps): envelope, level, key scaling, tremolo. */
    private static int level(int flags, int totalLevel, int ksl, int fnum, int block, int tremolo, int env) {
        int att = env + totalLevel;
        if (ksl != 0) {
            final int k = Math.max(0, KSL[fnum >> 5] - 16 * (7 - block));
            att += k >> (3 - ksl);
        }
        if ((flags & 0x80) != 0) {
            att += tremolo;
        }
        return Math.min(127, att);
    }

    /** The waveform at phase index {@code index} (10 bits a cycle) attenuated by {@code att}: -4096..4096. */
    static int operator(int index, int att, boolean halfSine) {
        final int i = index & 1023;
        final boolean negative = (i & 512) != 0;
        if (negative && halfSine) {
            return 0;
        }
        final int q = (i & 256) != 0 ? 255 - (i & 255) : i & 255;
        final int total = LOG_SIN[q] + (att << 4);
        if (total >= 13 << 8) {
            return 0;
        }
        final int amp = (EXP[total & 0xFF] << 1) >> (total >> 8);
        return negative ? -amp : amp;
    }

    /** Operator {@code op}'s attenuation (0-127), for tests. */
    int envelope(int op) {
        return envelope[op];
    }

    /** Operator {@code op}'s envelope state ({@link #ATTACK} ... {@link #DAMP}), for tests. */
    int envelopeState(int op) {
        return envelopeState[op];
    }

    /** The sample counter the envelope rates step on, for tests. */
    int envelopeCounter() {
        return envelopeCounter;
    }

    /** Operator {@code op}'s phase (19 bits), for tests. */
    int phase(int op) {
        return phase[op];
    }

    @Override
    protected int output() {
        return held ? 0 : sample * FULL_SWING / 8192;
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("audio.regs", regs, 0, 0xFF);
        select = s.u8("audio.select", select);
        held = s.bool("audio.held", held);
        visitPeriod(s);
        sample = s.i32("audio.sample", sample, -6 * 4096, 6 * 4096);
        s.ints("audio.phase", phase, 0, 0x7FFFF);
        s.ints("audio.envelope", envelope, 0, 127);
        s.ints("audio.envelopeState", envelopeState, ATTACK, DAMP);
        s.ints("audio.feedback", feedback, -4096, 4096);
        envelopeCounter = s.i32("audio.envelopeCounter", envelopeCounter, 0, 0x3FFFF);
        amCounter = s.i32("audio.amCounter", amCounter, 0, AM_STEPS * AM_DIVIDER - 1);
        pmCounter = s.u16("audio.pmCounter", pmCounter, 0x1FFF);
    }
}
