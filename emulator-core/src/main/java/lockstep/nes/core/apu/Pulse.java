package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/** A pulse channel ($4000-$4003 or $4004-$4007). */
final class Pulse implements Digestible {
    private static final long S_LENGTH = DigestKeys.section("length");
    private static final long S_ENVELOPE = DigestKeys.section("envelope");


    /** Pulse 1 negates with ones' complement (subtracts one more), pulse 2 with two's. */
    private final boolean onesComplement;
    final LengthCounter length = new LengthCounter();
    private final Envelope envelope = new Envelope();

    private int duty;
    private int dutyPos;
    /** The 11-bit period from the registers. */
    private int period;
    /** CPU cycles until the next sequencer step (the timer counts APU cycles = 2 CPU cycles). */
    private int timer;

    private boolean sweepEnabled;
    private int sweepPeriod;
    private boolean sweepNegate;
    private int sweepShift;
    private boolean sweepReload;
    private int sweepDivider;
    /** The sweep's target period, updated whenever the period or the sweep settings change. */
    @NotState("sweep target cache")
    private int targetPeriod;

    Pulse(boolean onesComplement) {
        this.onesComplement = onesComplement;
    }

    void power() {
        length.power();
        envelope.power();
        duty = 0;
        dutyPos = 0;
        period = 0;
        timer = 0;
        sweepEnabled = false;
        sweepPeriod = 0;
        sweepNegate = false;
        sweepShift = 0;
        sweepReload = false;
        sweepDivider = 0;
        updateTarget();
    }

    void write(int reg, int value) {
        switch (reg) {
            case 0 -> {
                duty = value >> 6;
                length.writeHalt((value & 0x20) != 0);
                envelope.write(value);
            }
            case 1 -> {
                sweepEnabled = (value & 0x80) != 0;
                sweepPeriod = (value >> 4) & 7;
                sweepNegate = (value & 0x08) != 0;
                sweepShift = value & 7;
                sweepReload = true;
                updateTarget();
            }
            case 2 -> setPeriod((period & 0x700) | value);
            default -> {
                length.load(value >> 3);
                setPeriod((period & 0xFF) | ((value & 7) << 8));
                dutyPos = 0;
                envelope.restart();
            }
        }
    }

    private void setPeriod(int p) {
        period = p;
        updateTarget();
    }

    private void updateTarget() {
        int change = period >> sweepShift;
        if (sweepNegate) {
            targetPeriod = period - change - (onesComplement ? 1 : 0);
        } else {
            targetPeriod = period + change;
        }
    }

    /** One CPU cycle of the timer. */
    void step() {
        if (timer == 0) {
            timer = period * 2 + 1;
            dutyPos = (dutyPos - 1) & 7;
        } else {
            timer--;
        }
    }

    /**
     * How many coming CPU cycles may be run by {@link #skip} with the output unchanged: all of
     * them while the channel is silenced (by its length counter, the sweep or volume 0, none
     * of which change between frame-counter clocks and register writes); otherwise the cycles
     * before the timer's next expiry that changes the duty bit.
     */
    int quietSpan() {
        if (length.counter == 0 || sweepMutes() || envelope.output() == 0) {
            return Integer.MAX_VALUE;
        }
        return DutyCycle.cyclesToChange(duty, dutyPos, timer, period);
    }

    /** {@code n} CPU cycles of {@link #step} at once: the timer's expiries counted, not walked. */
    void skip(int n) {
        final long run = TimerSkip.run(timer, period * 2 + 2, n);
        timer = (int) run;
        dutyPos = (dutyPos - TimerSkip.expiries(run)) & 7;
    }

    void quarterFrame() {
        envelope.clock(length.halt);
    }

    void halfFrame() {
        length.clock();
        if (sweepDivider == 0 && sweepEnabled && sweepShift > 0 && !sweepMutes()) {
            setPeriod(targetPeriod);
        }
        if (sweepDivider == 0 || sweepReload) {
            sweepDivider = sweepPeriod;
            sweepReload = false;
        } else {
            sweepDivider--;
        }
    }

    /** A period under 8 or a target over $7FF silences the channel (and stops the sweep). */
    private boolean sweepMutes() {
        return period < 8 || targetPeriod > 0x7FF;
    }

    /** The 4-bit DAC input. */
    int output() {
        if (length.counter == 0 || sweepMutes() || DutyCycle.bit(duty, dutyPos) == 0) {
            return 0;
        }
        return envelope.output();
    }

    /** The current 11-bit period (for tests and debuggers). */
    int period() {
        return period;
    }

    /** The digest term of the fields {@link #step} changes every cycle (see Apu.digestTerm). */
    long hotDigestTerm() {
        return W0 * (((dutyPos & 0xFFL) << 42) | ((timer & 0xFFFFL) << 10));
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return S_LENGTH * length.digestTerm()
        + S_ENVELOPE * envelope.digestTerm()
        + W0 * (((duty & 0xFFL) << 50)
            | ((dutyPos & 0xFFL) << 42)
            | ((period & 0xFFFFL) << 26)
            | ((timer & 0xFFFFL) << 10)
            | (DigestKeys.b(sweepEnabled) << 9)
            | ((sweepPeriod & 0xFFL) << 1)
            | DigestKeys.b(sweepNegate))
        + W1 * (((sweepShift & 0xFFL) << 41)
            | (DigestKeys.b(sweepReload) << 40)
            | ((sweepDivider & 0xFFL) << 32)
            | (targetPeriod & 0xFFFFFFFFL));
    }

    @Override
    public void state(StateVisitor s) {
        s.section("length", length);
        s.section("envelope", envelope);
        duty = s.u8("duty", duty, 3);
        dutyPos = s.u8("dutyPos", dutyPos, 7);
        period = s.u16("period", period, 0x7FF);
        timer = s.u16("timer", timer, 0xFFF);
        sweepEnabled = s.bool("sweepEnabled", sweepEnabled);
        sweepPeriod = s.u8("sweepPeriod", sweepPeriod, 7);
        sweepNegate = s.bool("sweepNegate", sweepNegate);
        sweepShift = s.u8("sweepShift", sweepShift, 7);
        sweepReload = s.bool("sweepReload", sweepReload);
        sweepDivider = s.u8("sweepDivider", sweepDivider, 7);
        targetPeriod = s.i32("targetPeriod", targetPeriod, -1, 0xFFE);
    }
}
