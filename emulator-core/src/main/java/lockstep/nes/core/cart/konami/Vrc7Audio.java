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
 * Integer-exact: the phase is a 19-bit accumulator advanced by (F-number &lt;&lt; block) x MULT / 4
 * a sample (vibrato adds to the F-number); an operator's output is the exponential of a log-sine
 * lookup plus its attenuation (envelope, total level, key scaling, tremolo; 0.375 dB a step,
 * 7 bits), as the chip computes it from its ROM tables (here computed once with StrictMath);
 * the modulator feeds back its last two outputs and phase-modulates the carrier. Envelopes run
 * attack, decay, sustain and release through the OPL family's rate tables (4R + key scaling,
 * a step pattern of 8 per rate, the global counter advancing every sample). Against the 2A03
 * (NESdev "NSFe", the mixe chunk's VRC7 default): a full-volume sine is 11 dB louder than a
 * 2A03 pulse at volume 15, peak to peak.
 */
final class Vrc7Audio extends PeriodicSound {
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
    /** Envelope increments: 8 steps for each rate pattern (the rate's low 2 bits; then rates 48 and up). */
    private static final int[][] EG_STEPS = {
        {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 1, 1, 0, 1}, {0, 1, 1, 1, 0, 1, 1, 1}, {0, 1, 1, 1, 1, 1, 1, 1},
        {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 2, 1, 1, 1, 2}, {1, 2, 1, 2, 1, 2, 1, 2}, {1, 2, 2, 2, 1, 2, 2, 2},
        {2, 2, 2, 2, 2, 2, 2, 2}, {2, 2, 2, 4, 2, 2, 2, 4}, {2, 4, 2, 4, 2, 4, 2, 4}, {2, 4, 4, 4, 2, 4, 4, 4},
        {4, 4, 4, 4, 4, 4, 4, 4},
    };
    /** Vibrato: the F-number's top 3 bits times this, halved, in 8 steps of 1024 samples (about 6 Hz). */
    private static final int[] VIBRATO = {0, 1, 2, 1, 0, -1, -2, -1};

    static final int ATTACK = 0;
    static final int DECAY = 1;
    static final int SUSTAIN = 2;
    static final int RELEASE = 3;
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

    Vrc7Audio() {
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
    void writeSelect(int value) {
        select = value & 0xFF;
    }

    /** $9030: the selected register. */
    void writeData(int value) {
        catchUp();
        final int reg = select & 0x3F;
        final int old = regs[reg];
        regs[reg] = value & 0xFF;
        if (reg >= 0x20 && reg <= 0x25) {
            final int ch = reg - 0x20;
            final boolean wasOn = (old & 0x10) != 0;
            final boolean on = (value & 0x10) != 0;
            if (on && !wasOn) {
                for (int op = 2 * ch; op <= 2 * ch + 1; op++) {
                    phase[op] = 0;
                    envelopeState[op] = ATTACK;
                }
            } else if (!on && wasOn) {
                envelopeState[2 * ch] = RELEASE;
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
        final int m = 2 * ch;
        final int c = m + 1;
        // The modulator, with feedback from its last two outputs.
        advance(m, patch(ch, 0), fnum, block, vibrato, sustainOn, patch(ch, 4), patch(ch, 6));
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
        advance(c, patch(ch, 1), fnum, block, vibrato, sustainOn, patch(ch, 5), patch(ch, 7));
        final int carLevel = level(patch(ch, 1), (regs[0x30 + ch] & 0x0F) << 3, patch(ch, 3) >> 6, fnum, block,
                tremolo, envelope[c]);
        return operator((phase[c] >> 9) + (modOut >> 1), carLevel, (patch(ch, 3) & 0x10) != 0);
    }

    /** An operator's phase and envelope, one sample on. */
    private void advance(int op, int flags, int fnum, int block, int vibrato, boolean sustainOn, int adr, int slr) {
        int f = fnum;
        if ((flags & 0x40) != 0) {
            f += ((fnum >> 6) * vibrato) >> 1;
        }
        phase[op] = (phase[op] + ((f << block) * MULTIPLY[flags & 0x0F] >> 2)) & 0x7FFFF;
        final boolean percussive = (flags & 0x20) == 0;
        final int state = envelopeState[op];
        final int r;
        switch (state) {
            case ATTACK -> r = adr >> 4;
            case DECAY -> r = adr & 0x0F;
            case SUSTAIN -> r = percussive ? slr & 0x0F : 0;
            default -> r = sustainOn ? 5 : percussive ? 7 : slr & 0x0F;
        }
        int env = envelope[op];
        if (r != 0) {
            final int ksr = (block << 1 | fnum >> 8) >> ((flags & 0x10) != 0 ? 0 : 2);
            final int rate = Math.min(63, 4 * r + ksr);
            final int inc = increment(rate);
            if (state == ATTACK) {
                env = rate >= 60 ? 0 : env + ((~env * inc) >> 3);
            } else {
                env = Math.min(127, env + inc);
            }
        }
        if (state == ATTACK && env <= 0) {
            env = 0;
            envelopeState[op] = DECAY;
        } else if (state == DECAY && env >= (slr >> 4) << 3) {
            envelopeState[op] = SUSTAIN;
        }
        envelope[op] = env;
    }

    /** The envelope step at this sample for {@code rate} (0-63), from the rate tables. */
    private int increment(int rate) {
        if (rate < 4) {
            return 0;
        }
        final int pattern;
        final int shift;
        if (rate < 48) {
            pattern = rate & 3;
            shift = 13 - (rate >> 2);
        } else {
            pattern = Math.min(12, rate - 44);
            shift = 0;
        }
        if ((envelopeCounter & ((1 << shift) - 1)) != 0) {
            return 0;
        }
        return EG_STEPS[pattern][(envelopeCounter >> shift) & 7];
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
        s.ints("audio.envelopeState", envelopeState, ATTACK, RELEASE);
        s.ints("audio.feedback", feedback, -4096, 4096);
        envelopeCounter = s.i32("audio.envelopeCounter", envelopeCounter, 0, 0x3FFFF);
        amCounter = s.i32("audio.amCounter", amCounter, 0, AM_STEPS * AM_DIVIDER - 1);
        pmCounter = s.u16("audio.pmCounter", pmCounter, 0x1FFF);
    }
}
