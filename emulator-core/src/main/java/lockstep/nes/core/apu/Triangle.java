package lockstep.nes.core.apu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The triangle channel ($4008-$400B). Its timer runs at the CPU rate. The sequencer steps
 * whenever both the length and the linear counter are nonzero, at any period: periods 0
 * and 1 give an ultrasonic wave that the output filter averages to a level near 7.5 (and
 * halting it leaves the output where the sequencer stopped, as on hardware).
 */
final class Triangle implements Digestible {
    private static final long S_LENGTH = DigestKeys.section("length");

    final LengthCounter length = new LengthCounter();

    private int period;
    private int timer;
    private int sequencePos;
    private int linearCounter;
    private int linearReload;
    private boolean linearReloadFlag;
    private boolean control;

    void power() {
        length.power();
        period = 0;
        timer = 0;
        sequencePos = 0;
        linearCounter = 0;
        linearReload = 0;
        linearReloadFlag = false;
        control = false;
    }

    /** Soft reset puts the sequencer back to its first step (output 15). */
    void resetPhase() {
        sequencePos = 0;
    }

    void write(int reg, int value) {
        switch (reg) {
            case 0 -> {
                control = (value & 0x80) != 0;
                linearReload = value & 0x7F;
                length.writeHalt(control);
            }
            case 1 -> {
            }
            case 2 -> period = (period & 0x700) | value;
            default -> {
                length.load(value >> 3);
                period = (period & 0xFF) | ((value & 7) << 8);
                linearReloadFlag = true;
            }
        }
    }

    void step() {
        if (timer == 0) {
            timer = period;
            if (length.counter != 0 && linearCounter != 0) {
                sequencePos = (sequencePos + 1) & 31;
            }
        } else {
            timer--;
        }
    }

    /**
     * How many coming CPU cycles may be run by {@link #skip} with the output unchanged: all of
     * them while the sequencer is stopped (a zero length or linear counter, which change only
     * on frame-counter clocks and register writes), otherwise those before the timer expires.
     */
    int quietSpan() {
        return length.counter == 0 || linearCounter == 0 ? Integer.MAX_VALUE : timer;
    }

    /** {@code n} CPU cycles of {@link #step} at once: the timer's expiries counted, not walked. */
    void skip(int n) {
        final long run = TimerSkip.run(timer, period + 1, n);
        timer = (int) run;
        if (length.counter != 0 && linearCounter != 0) {
            sequencePos = (sequencePos + TimerSkip.expiries(run)) & 31;
        }
    }

    void quarterFrame() {
        if (linearReloadFlag) {
            linearCounter = linearReload;
        } else if (linearCounter > 0) {
            linearCounter--;
        }
        if (!control) {
            linearReloadFlag = false;
        }
    }

    void halfFrame() {
        length.clock();
    }

    /** 15, 14, ..., 0, 0, 1, ..., 15. */
    int output() {
        return sequencePos < 16 ? 15 - sequencePos : sequencePos - 16;
    }

    /** The digest term of the fields {@link #step} changes every cycle (see Apu.digestTerm). */
    long hotDigestTerm() {
        return W0 * (((timer & 0xFFFFL) << 26) | ((sequencePos & 0xFFL) << 18));
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return S_LENGTH * length.digestTerm()
        + W0 * (((period & 0xFFFFL) << 42)
            | ((timer & 0xFFFFL) << 26)
            | ((sequencePos & 0xFFL) << 18)
            | ((linearCounter & 0xFFL) << 10)
            | ((linearReload & 0xFFL) << 2)
            | (DigestKeys.b(linearReloadFlag) << 1)
            | DigestKeys.b(control));
    }

    @Override
    public void state(StateVisitor s) {
        s.section("length", length);
        period = s.u16("period", period, 0x7FF);
        timer = s.u16("timer", timer, 0x7FF);
        sequencePos = s.u8("sequencePos", sequencePos, 31);
        linearCounter = s.u8("linearCounter", linearCounter, 0x7F);
        linearReload = s.u8("linearReload", linearReload, 0x7F);
        linearReloadFlag = s.bool("linearReloadFlag", linearReloadFlag);
        control = s.bool("control", control);
    }
}
