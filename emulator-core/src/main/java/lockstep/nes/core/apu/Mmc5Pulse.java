package lockstep.nes.core.apu;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * A pulse channel of the MMC5 ($5000-$5003 or $5004-$5007): the 2A03's pulse without the sweep
 * unit ($5001 does nothing), not silenced by periods under 8, its envelope and length counter
 * clocked by the MMC5's own 240 Hz divider ({@link #quarterFrame}) rather than the APU's frame
 * counter. Writes take effect at once.
 */
public final class Mmc5Pulse implements Stateful {

    private final Envelope envelope = new Envelope();
    private boolean enabled;
    private boolean halt;
    private int length;
    private int duty;
    private int dutyPos;
    private int period;
    /** CPU cycles until the next sequencer step (the timer counts APU cycles = 2 CPU cycles). */
    private int timer;

    public void power() {
        envelope.power();
        enabled = false;
        halt = false;
        length = 0;
        duty = 0;
        dutyPos = 0;
        period = 0;
        timer = 0;
    }

    /** A write of register {@code reg} (0-3) of the channel. */
    public void write(int reg, int value) {
        switch (reg) {
            case 0 -> {
                duty = value >> 6;
                halt = (value & 0x20) != 0;
                envelope.write(value);
            }
            case 1 -> {
                // No sweep unit.
            }
            case 2 -> period = (period & 0x700) | value;
            default -> {
                if (enabled) {
                    length = LengthCounter.lengthOf(value >> 3);
                }
                period = (period & 0xFF) | ((value & 7) << 8);
                dutyPos = 0;
                envelope.restart();
            }
        }
    }

    /** The enable bit of $5015: clearing it silences the channel and clears its length. */
    public void enable(boolean on) {
        enabled = on;
        if (!on) {
            length = 0;
        }
    }

    /** True while the length counter runs (a $5015 read). */
    public boolean playing() {
        return length > 0;
    }

    /** One CPU cycle of the timer. */
    public void step() {
        if (timer == 0) {
            timer = period * 2 + 1;
            dutyPos = (dutyPos - 1) & 7;
        } else {
            timer--;
        }
    }

    /** The 240 Hz clock: the envelope, and the length counter unless halted. */
    public void quarterFrame() {
        envelope.clock(halt);
        if (length > 0 && !halt) {
            length--;
        }
    }

    /**
     * How many coming CPU cycles {@link #skip} may run with the output unchanged: all while
     * the channel is silent (which only a 240 Hz clock or a write changes), else the cycles
     * before the timer expiry that changes the duty bit.
     */
    public int quietSpan() {
        if (length == 0 || envelope.output() == 0) {
            return Integer.MAX_VALUE;
        }
        return DutyCycle.cyclesToChange(duty, dutyPos, timer, period);
    }

    /** {@code n} CPU cycles of {@link #step} at once. */
    public void skip(int n) {
        final long run = TimerSkip.run(timer, period * 2 + 2, n);
        timer = (int) run;
        dutyPos = (dutyPos - TimerSkip.expiries(run)) & 7;
    }

    /** The 4-bit DAC input. */
    public int output() {
        if (length == 0 || DutyCycle.bit(duty, dutyPos) == 0) {
            return 0;
        }
        return envelope.output();
    }

    @Override
    public void state(StateVisitor s) {
        s.section("envelope", envelope);
        enabled = s.bool("enabled", enabled);
        halt = s.bool("halt", halt);
        length = s.u8("length", length, 254);
        duty = s.u8("duty", duty, 3);
        dutyPos = s.u8("dutyPos", dutyPos, 7);
        period = s.u16("period", period, 0x7FF);
        timer = s.u16("timer", timer, 0xFFF);
    }
}
