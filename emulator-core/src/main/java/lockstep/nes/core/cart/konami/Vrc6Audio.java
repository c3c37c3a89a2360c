package lockstep.nes.core.cart.konami;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.state.StateVisitor;

/**
 * The VRC6's sound (NESdev "VRC6 audio"): two pulses and a sawtooth, each clocked by a 12-bit
 * divider that reloads from its period (P + 1 CPU cycles per clock).
 * <pre>
 *  $9000/$A000 MDDD VVVV  pulse: mode (1: output the volume, ignoring the duty), duty, volume
 *  $9001/$A001            period bits 0-7
 *  $9002/$A002 E... PPPP  enable, period bits 8-11 (E clear: silenced, duty position reset)
 *  $9003       .... .BAH  H halts every divider; A: periods shifted right 4 (16x), B: by 8 (256x, over A)
 *  $B000       ..RR RRRR  sawtooth accumulator rate
 *  $B001/$B002            sawtooth period and enable (E clear: the accumulator held at 0)
 * </pre>
 * A pulse steps through 16 positions, outputting its volume while the position is at most the
 * duty. The sawtooth's 14-step sequence adds the rate to an 8-bit accumulator on every even
 * step and clears it on step 0; its output is the accumulator's top 5 bits. The 6-bit linear
 * DAC sums the three; at full volume a VRC6 pulse is about a 2A03 pulse at full volume, of
 * opposite polarity.
 */
public final class Vrc6Audio extends ExpansionAudio {
    private final int[] pulseControl = new int[2];
    private final int[] pulsePeriod = new int[2];
    private final boolean[] pulseEnabled = new boolean[2];
    private final int[] pulseTimer = new int[2];
    private final int[] pulseStep = new int[2];
    private int sawRate;
    private int sawPeriod;
    private boolean sawEnabled;
    private int sawTimer;
    private int sawStep;
    private int sawAccumulator;
    private int frequencyControl;

    @Override
    public void power() {
        for (int i = 0; i < 2; i++) {
            pulseControl[i] = 0;
            pulsePeriod[i] = 0;
            pulseEnabled[i] = false;
            pulseTimer[i] = 0;
            pulseStep[i] = 0;
        }
        sawRate = 0;
        sawPeriod = 0;
        sawEnabled = false;
        sawTimer = 0;
        sawStep = 0;
        sawAccumulator = 0;
        frequencyControl = 0;
    }

    /** A CPU write to channel {@code channel} (0, 1 pulses, 2 sawtooth), register {@code reg} (0-2), or $9003 (channel 0, reg 3). */
    public void write(int channel, int reg, int value) {
        catchUp();
        value &= 0xFF;
        if (reg == 3) {
            frequencyControl = value & 7;
        } else if (channel < 2) {
            switch (reg) {
                case 0 -> pulseControl[channel] = value;
                case 1 -> pulsePeriod[channel] = (pulsePeriod[channel] & 0xF00) | value;
                default -> {
                    pulsePeriod[channel] = (pulsePeriod[channel] & 0xFF) | ((value & 0x0F) << 8);
                    pulseEnabled[channel] = (value & 0x80) != 0;
                    if (!pulseEnabled[channel]) {
                        pulseStep[channel] = 0;
                    }
                }
            }
        } else {
            switch (reg) {
                case 0 -> sawRate = value & 0x3F;
                case 1 -> sawPeriod = (sawPeriod & 0xF00) | value;
                default -> {
                    sawPeriod = (sawPeriod & 0xFF) | ((value & 0x0F) << 8);
                    sawEnabled = (value & 0x80) != 0;
                    if (!sawEnabled) {
                        sawStep = 0;
                        sawAccumulator = 0;
                    }
                }
            }
        }
        changed();
    }

    /** A period as the dividers use it: shifted right by 8 (256x) or 4 (16x) when $9003 says so. */
    private int effective(int period) {
        if ((frequencyControl & 4) != 0) {
            return period >> 8;
        }
        return (frequencyControl & 2) != 0 ? period >> 4 : period;
    }

    @Override
    protected void step() {
        if ((frequencyControl & 1) != 0) {
            return;
        }
        for (int i = 0; i < 2; i++) {
            if (pulseEnabled[i]) {
                if (pulseTimer[i] == 0) {
                    pulseTimer[i] = effective(pulsePeriod[i]);
                    pulseStep[i] = (pulseStep[i] + 1) & 15;
                } else {
                    pulseTimer[i]--;
                }
            }
        }
        if (sawEnabled) {
            if (sawTimer == 0) {
                sawTimer = effective(sawPeriod);
                sawStep = sawStep == 13 ? 0 : sawStep + 1;
                if (sawStep == 0) {
                    sawAccumulator = 0;
                } else if ((sawStep & 1) == 0) {
                    sawAccumulator = (sawAccumulator + sawRate) & 0xFF;
                }
            } else {
                sawTimer--;
            }
        }
    }

    /** The DAC's input: the two pulses' and the sawtooth's levels summed (0-61). */
    int level() {
        int sum = sawEnabled ? sawAccumulator >> 3 : 0;
        for (int i = 0; i < 2; i++) {
            final int c = pulseControl[i];
            if (pulseEnabled[i] && ((c & 0x80) != 0 || pulseStep[i] <= ((c >> 4) & 7))) {
                sum += c & 0x0F;
            }
        }
        return sum;
    }

    @Override
    protected int output() {
        return -level() * APU_PULSE_FULL / 15;
    }

    @Override
    protected int quietSpan() {
        if ((frequencyControl & 1) != 0) {
            return Integer.MAX_VALUE;
        }
        int span = Integer.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            if (pulseEnabled[i]) {
                span = Math.min(span, pulseTimer[i]);
            }
        }
        return sawEnabled ? Math.min(span, sawTimer) : span;
    }

    @Override
    protected void skip(int n) {
        if ((frequencyControl & 1) != 0) {
            return;
        }
        for (int i = 0; i < 2; i++) {
            if (pulseEnabled[i]) {
                pulseTimer[i] -= n;
            }
        }
        if (sawEnabled) {
            sawTimer -= n;
        }
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("audio.pulseControl", pulseControl, 0, 0xFF);
        s.ints("audio.pulsePeriod", pulsePeriod, 0, 0xFFF);
        pulseEnabled[0] = s.bool("audio.pulse1Enabled", pulseEnabled[0]);
        pulseEnabled[1] = s.bool("audio.pulse2Enabled", pulseEnabled[1]);
        s.ints("audio.pulseTimer", pulseTimer, 0, 0xFFF);
        s.ints("audio.pulseStep", pulseStep, 0, 15);
        sawRate = s.u8("audio.sawRate", sawRate, 0x3F);
        sawPeriod = s.u16("audio.sawPeriod", sawPeriod, 0xFFF);
        sawEnabled = s.bool("audio.sawEnabled", sawEnabled);
        sawTimer = s.u16("audio.sawTimer", sawTimer, 0xFFF);
        sawStep = s.u8("audio.sawStep", sawStep, 13);
        sawAccumulator = s.u8("audio.sawAccumulator", sawAccumulator);
        frequencyControl = s.u8("audio.frequencyControl", frequencyControl, 7);
    }
}
