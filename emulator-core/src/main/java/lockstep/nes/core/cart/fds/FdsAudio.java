package lockstep.nes.core.cart.fds;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.state.StateVisitor;

/**
 * The 2C33's wavetable sound (NESdev "FDS audio"): a 64-step table of 6-bit samples played by a
 * phase accumulator whose pitch a modulator bends, with a volume envelope and a modulation
 * envelope. Self-contained: {@link #write} takes $4040-$408A, {@link #read} answers $4040-$407F
 * and $4090-$4092, {@link #clock} is one CPU cycle and {@link #sample} the output, so the same
 * unit serves the disk system's RAM adapter and a music player.
 * <pre>
 *  $4040-$407F  wavetable (writable only while $4089 bit 7 is set)
 *  $4080        MDSS SSSS  volume envelope: M 1 = off (gain := S), D 1 = up, S speed
 *  $4082/$4083  wave pitch bits 0-7 / HE.. PPPP: H halts the wave (phase to 0), runs the envelopes 4x
 *               and stops the modulator's table; E stops both envelopes and resets their timers
 *  $4084        modulation envelope, as $4080
 *  $4085        .CCC CCCC  modulation counter (7-bit signed)
 *  $4086/$4087  modulation pitch bits 0-7 / HF.. PPPP: H halts the modulator's table (and lets $4088
 *               write it); F forces the carry out of the accumulator's bit 11 (a table step every tick)
 *  $4088        .... .VVV  append to the 32-entry modulation table (while halted): the entry at the
 *               accumulator's bits 13-17, which then advance by one
 *  $4089        W... ..VV  W: wavetable writable (output held); V master volume 2/2, 2/3, 2/4, 2/5
 *  $408A        envelope speed multiplier
 * </pre>
 * Timing: the wave and the modulator tick every 16 CPU cycles, each adding its pitch to an
 * accumulator whose bits 12-17 are its table position (one step per 2^12 of pitch: a step rate
 * of n x pitch / 16 / 2^12 for a CPU clock n). An envelope ticks every 8 x (speed + 1) x $408A
 * cycles (a quarter of that while $4083 bit 7 halts the wave; never while $408A is 0 or $4083 bit 6
 * is set), raising its gain by one below 32 or lowering it by one above 0. The modulator applies its table entry each time its position
 * advances: 0, +1, +2, +4, reset to 0, -4, -2, -1 to the counter (wrapping in 7 bits); every
 * entry serves two positions. The pitch the wave uses is NESdev's formula ({@link #modulatedPitch}).
 * The volume gain reaches the output only when the wave position is 0, clamped to 32.
 *
 * <p>Output: the DAC (sample x clamped gain x master volume) goes through the RAM adapter's RC
 * low-pass (NESdev "FDS audio": first order, cutoff about 2 kHz), modelled as a one-pole filter
 * in fixed point sampled at each tick ({@link #LOW_PASS_K}); its state is described state, so
 * snapshots, the digest and lockstep see it. Level: at full scale (sample 63, gain 32, master 2/2,
 * the filter settled) the output is 2.4 times a 2A03 pulse at volume 15 (NESdev "FDS audio",
 * mixing).
 */
public final class FdsAudio extends ExpansionAudio {
    /** CPU cycles between ticks of the wave and the modulator. */
    static final int TICK_CYCLES = 16;
    /** Master volume 2/2, 2/3, 2/4, 2/5 as sixtieths. */
    private static final int[] MASTER_SIXTIETHS = {60, 40, 30, 24};
    /** The DAC's full scale: sample 63 x gain 32 x 60/60. */
    static final int FULL_DAC = 63 * 32 * 60;
    /** {@link #FULL_DAC} in the mixer's units: 2.4 times a 2A03 pulse at volume 15. */
    static final int FULL_LEVEL = APU_PULSE_FULL * 24 / 10;
    /** Modulation table entries as counter changes; {@link #MOD_RESET} clears the counter. */
    private static final int[] MOD_STEP = {0, 1, 2, 4, 0, -4, -2, -1};
    private static final int MOD_RESET = 4;
    private static final int ACCUMULATOR_MASK = 0x3FFFF;
    /** The output low-pass's cutoff (NESdev "FDS audio": the RC filter after the DAC, about 2 kHz). */
    static final int LOW_PASS_HZ = 2000;
    /** The CPU clock of a Famicom (NTSC), whose 16-cycle tick samples the filter. */
    private static final double CPU_HZ = 1_789_773.0;
    /** Fractional bits of the filter's state (DAC units x 2^8). */
    static final int LOW_PASS_SHIFT = 8;
    /**
     * The one-pole filter's coefficient per tick in 1/65536: 1 - e^(-2 pi fc T) for T = 16 CPU
     * cycles (StrictMath, rounded once: the same integer on every JVM).
     */
    static final int LOW_PASS_K = (int) StrictMath.round(
            65536 * (1 - StrictMath.exp(-2 * StrictMath.PI * LOW_PASS_HZ * TICK_CYCLES / CPU_HZ)));

    private final int[] wave = new int[64];
    private final int[] modTable = new int[32];
    private int volumeControl;
    private int volumeGain;
    private int volumeTimer;
    /** The volume gain the output uses (latched at wave position 0, clamped to 32). */
    private int volumeOut;
    private int modControl;
    private int modGain;
    private int modTimer;
    private int wavePitch;
    private boolean waveHalt;
    private boolean envelopesOff;
    private int waveAccumulator;
    private int modPitch;
    private boolean modHalt;
    private int modAccumulator;
    /** The modulation counter, -64..63. */
    private int modCounter;
    private boolean waveWrite;
    private int masterVolume;
    private int envelopeSpeed;
    /** Cycles to the next tick of the wave and the modulator (1-16). */
    private int tickTimer;
    /** The sample on the DAC (held while the wavetable is writable). */
    private int sampleOut;
    /** The low-pass's output in DAC units x 2^{@link #LOW_PASS_SHIFT}. */
    private int lowPass;
    /** $4087 bit 6: the modulator's accumulator carries out of bit 11 on every tick. */
    private boolean modForceCarry;

    @Override
    public void power() {
        java.util.Arrays.fill(wave, 0);
        java.util.Arrays.fill(modTable, 0);
        volumeControl = 0x80;
        volumeGain = 0;
        volumeOut = 0;
        modControl = 0x80;
        modGain = 0;
        wavePitch = 0;
        waveHalt = true;
        envelopesOff = false;
        waveAccumulator = 0;
        modPitch = 0;
        modHalt = true;
        modAccumulator = 0;
        modCounter = 0;
        waveWrite = false;
        masterVolume = 0;
        // The value the BIOS writes at reset: a program run without it (a music player) hears the
        // envelopes at their usual rate.
        envelopeSpeed = 0xE8;
        volumeTimer = envelopePeriod(volumeControl);
        modTimer = envelopePeriod(modControl);
        tickTimer = TICK_CYCLES;
        sampleOut = 0;
        lowPass = 0;
        modForceCarry = false;
    }

    /** A CPU write to $4040-$408A (other addresses are ignored). */
    public void write(int addr, int value) {
        catchUp();
        value &= 0xFF;
        if (addr >= 0x4040 && addr < 0x4080) {
            if (waveWrite) {
                wave[addr & 0x3F] = value & 0x3F;
            }
            changed();
            return;
        }
        switch (addr) {
            case 0x4080 -> {
                volumeControl = value;
                if ((value & 0x80) != 0) {
                    volumeGain = value & 0x3F;
                }
                volumeTimer = envelopePeriod(value);
                if (position() == 0) {
                    volumeOut = Math.min(volumeGain, 32);
                }
            }
            case 0x4082 -> wavePitch = (wavePitch & 0xF00) | value;
            case 0x4083 -> {
                wavePitch = (wavePitch & 0xFF) | ((value & 0x0F) << 8);
                final boolean halt = (value & 0x80) != 0;
                envelopesOff = (value & 0x40) != 0;
                if (halt) {
                    waveAccumulator = 0;
                    volumeOut = Math.min(volumeGain, 32);
                }
                if (envelopesOff || halt != waveHalt) {
                    // Bit 6 resets both envelopes' timers; bit 7 changes the rate they count at.
                    waveHalt = halt;
                    volumeTimer = envelopePeriod(volumeControl);
                    modTimer = envelopePeriod(modControl);
                }
            }
            case 0x4084 -> {
                modControl = value;
                if ((value & 0x80) != 0) {
                    modGain = value & 0x3F;
                }
                modTimer = envelopePeriod(value);
            }
            case 0x4085 -> modCounter = signed7(value);
            case 0x4086 -> modPitch = (modPitch & 0xF00) | value;
            case 0x4087 -> {
                modPitch = (modPitch & 0xFF) | ((value & 0x0F) << 8);
                modHalt = (value & 0x80) != 0;
                modForceCarry = (value & 0x40) != 0;
            }
            case 0x4088 -> {
                if (modHalt) {
                    modTable[(modAccumulator >> 13) & 31] = value & 7;
                    modAccumulator = (modAccumulator + (2 << 12)) & ACCUMULATOR_MASK;
                }
            }
            case 0x4089 -> {
                waveWrite = (value & 0x80) != 0;
                masterVolume = value & 3;
            }
            case 0x408A -> {
                envelopeSpeed = value;
                volumeTimer = envelopePeriod(volumeControl);
                modTimer = envelopePeriod(modControl);
            }
            default -> {
                return;
            }
        }
        changed();
    }

    /**
     * A CPU read of $4040-$407F (the table; the sample under the wave position while the table is
     * not writable) or $4090-$4092 (volume gain, the wave accumulator's bits 10-17, modulation
     * gain); -1 (open bus) elsewhere. Bits 6-7 of the table and the gains read as 01 (open bus
     * on the hardware, seen as $40).
     */
    public int read(int addr) {
        catchUp();
        if (addr >= 0x4040 && addr < 0x4080) {
            return 0x40 | (waveWrite ? wave[addr & 0x3F] : wave[position()]);
        }
        return switch (addr) {
            case 0x4090 -> 0x40 | volumeGain;
            case 0x4091 -> (waveAccumulator >> 10) & 0xFF;
            case 0x4092 -> 0x40 | modGain;
            default -> -1;
        };
    }

    /** Reads without side effects (nothing here has any). */
    public int peek(int addr) {
        return read(addr);
    }

    /** One CPU cycle, for a player that drives the unit itself. */
    public void clock() {
        step();
    }

    /** The output now, in the 2A03 mixer's units (0 to {@link #FULL_LEVEL}). */
    public int sample() {
        return output();
    }

    private int position() {
        return (waveAccumulator >> 12) & 63;
    }

    private static int signed7(int v) {
        return ((v & 0x7F) ^ 0x40) - 0x40;
    }

    /**
     * CPU cycles between ticks of an envelope with this control byte: 8 x (speed + 1) x $408A, a
     * quarter of it while $4083 bit 7 halts the wave (the envelopes run 4x: a hardware test on the
     * NESdev forum, recorded on NESdev's "FDS audio").
     */
    private int envelopePeriod(int control) {
        return (waveHalt ? 2 : 8) * ((control & 0x3F) + 1) * envelopeSpeed;
    }

    private boolean envelopeRuns(int control) {
        return (control & 0x80) == 0 && !envelopesOff && envelopeSpeed != 0;
    }

    @Override
    protected void step() {
        if (envelopeRuns(volumeControl) && --volumeTimer <= 0) {
            volumeTimer = envelopePeriod(volumeControl);
            volumeGain = envelopeTick(volumeControl, volumeGain);
        }
        if (envelopeRuns(modControl) && --modTimer <= 0) {
            modTimer = envelopePeriod(modControl);
            modGain = envelopeTick(modControl, modGain);
        }
        if (--tickTimer == 0) {
            tickTimer = TICK_CYCLES;
            tick();
        }
    }

    private static int envelopeTick(int control, int gain) {
        if ((control & 0x40) != 0) {
            return gain < 32 ? gain + 1 : gain;
        }
        return gain > 0 ? gain - 1 : gain;
    }

    /**
     * The 16-cycle tick: the modulator, then the wave, then the output filter. The modulator's
     * accumulator stands while $4087 bit 7 or $4083 bit 7 is set; $4087 bit 6 forces the carry
     * out of its bit 11, so its table position (bits 12-17) advances by exactly one each tick.
     */
    private void tick() {
        if (!modHalt && !waveHalt && (modPitch != 0 || modForceCarry)) {
            final int before = modAccumulator;
            final int low = (before & 0xFFF) + modPitch;
            final int carry = modForceCarry ? 1 : low >> 12;
            modAccumulator = ((((before >> 12) + carry) << 12) | (low & 0xFFF)) & ACCUMULATOR_MASK;
            if ((before >> 12) != (modAccumulator >> 12)) {
                final int entry = modTable[(before >> 13) & 31];
                modCounter = entry == MOD_RESET ? 0 : signed7(modCounter + MOD_STEP[entry]);
            }
        }
        if (!waveHalt) {
            final int pitch = modulatedPitch(wavePitch, modCounter, modGain);
            if (pitch > 0) {
                waveAccumulator = (waveAccumulator + pitch) & ACCUMULATOR_MASK;
            }
            if (position() == 0) {
                volumeOut = Math.min(volumeGain, 32);
            }
        }
        if (!waveWrite) {
            sampleOut = wave[position()];
        }
        final long target = (long) dac() << LOW_PASS_SHIFT;
        lowPass += (int) (((target - lowPass) * LOW_PASS_K + 0x8000) >> 16);
    }

    /** The DAC's level before the filter: sample x clamped gain x master volume in sixtieths. */
    int dac() {
        return sampleOut * volumeOut * MASTER_SIXTIETHS[masterVolume];
    }

    /**
     * The wave's pitch after modulation (NESdev "FDS audio", the frequency calculation): the
     * counter times the gain, its low 4 bits dropped with a bias (-1 or +2 when any was set and
     * bit 7 of the result is clear), wrapped to -64..191, times the pitch, rounded to the nearest
     * after dropping 6 bits, added to the pitch.
     */
    static int modulatedPitch(int pitch, int counter, int gain) {
        int temp = counter * gain;
        final int remainder = temp & 0xF;
        temp >>= 4;
        if (remainder > 0 && (temp & 0x80) == 0) {
            temp += counter < 0 ? -1 : 2;
        }
        if (temp >= 192) {
            temp -= 256;
        } else if (temp < -64) {
            temp += 256;
        }
        temp = pitch * temp;
        final int rounding = temp & 0x3F;
        temp >>= 6;
        if (rounding >= 32) {
            temp += 1;
        }
        return pitch + temp;
    }

    @Override
    protected int output() {
        final int settled = (lowPass + (1 << (LOW_PASS_SHIFT - 1))) >> LOW_PASS_SHIFT;
        return (int) ((long) settled * FULL_LEVEL / FULL_DAC);
    }

    @Override
    protected int quietSpan() {
        int span = tickTimer - 1;
        if (envelopeRuns(volumeControl)) {
            span = Math.min(span, volumeTimer - 1);
        }
        if (envelopeRuns(modControl)) {
            span = Math.min(span, modTimer - 1);
        }
        return Math.max(0, span);
    }

    @Override
    protected void skip(int n) {
        tickTimer -= n;
        if (envelopeRuns(volumeControl)) {
            volumeTimer -= n;
        }
        if (envelopeRuns(modControl)) {
            modTimer -= n;
        }
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("audio.wave", wave, 0, 63);
        s.ints("audio.modTable", modTable, 0, 7);
        volumeControl = s.u8("audio.volumeControl", volumeControl);
        volumeGain = s.u8("audio.volumeGain", volumeGain, 63);
        volumeTimer = s.i32("audio.volumeTimer", volumeTimer, 0, 8 * 64 * 255);
        volumeOut = s.u8("audio.volumeOut", volumeOut, 32);
        modControl = s.u8("audio.modControl", modControl);
        modGain = s.u8("audio.modGain", modGain, 63);
        modTimer = s.i32("audio.modTimer", modTimer, 0, 8 * 64 * 255);
        wavePitch = s.u16("audio.wavePitch", wavePitch, 0xFFF);
        waveHalt = s.bool("audio.waveHalt", waveHalt);
        envelopesOff = s.bool("audio.envelopesOff", envelopesOff);
        waveAccumulator = s.i32("audio.waveAccumulator", waveAccumulator, 0, ACCUMULATOR_MASK);
        modPitch = s.u16("audio.modPitch", modPitch, 0xFFF);
        modHalt = s.bool("audio.modHalt", modHalt);
        modAccumulator = s.i32("audio.modAccumulator", modAccumulator, 0, ACCUMULATOR_MASK);
        modCounter = s.i32("audio.modCounter", modCounter, -64, 63);
        waveWrite = s.bool("audio.waveWrite", waveWrite);
        masterVolume = s.u8("audio.masterVolume", masterVolume, 3);
        envelopeSpeed = s.u8("audio.envelopeSpeed", envelopeSpeed);
        tickTimer = s.u8("audio.tickTimer", tickTimer, TICK_CYCLES);
        sampleOut = s.u8("audio.sampleOut", sampleOut, 63);
        lowPass = s.i32("audio.lowPass", lowPass, 0, FULL_DAC << LOW_PASS_SHIFT);
        modForceCarry = s.bool("audio.modForceCarry", modForceCarry);
    }
}
