package lockstep.nes.core.apu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/** The noise channel ($400C-$400F): a 15-bit LFSR with a 32767-step mode and a short 93-step mode. */
final class Noise implements Digestible {
    private static final long S_LENGTH = DigestKeys.section("length");
    private static final long S_ENVELOPE = DigestKeys.section("envelope");

    /** Timer periods in CPU cycles (NTSC). */
    private static final int[] PERIODS = {4, 8, 16, 32, 64, 96, 128, 160, 202, 254, 380, 508, 762, 1016, 2034, 4068};

    final LengthCounter length = new LengthCounter();
    private final Envelope envelope = new Envelope();

    private int period;
    private int timer;
    private boolean shortMode;
    private int shift;

    void power() {
        length.power();
        envelope.power();
        period = PERIODS[0] - 1;
        timer = 0;
        shortMode = false;
        shift = 1;
    }

    void write(int reg, int value) {
        switch (reg) {
            case 0 -> {
                length.writeHalt((value & 0x20) != 0);
                envelope.write(value);
            }
            case 1 -> {
            }
            case 2 -> {
                period = PERIODS[value & 0x0F] - 1;
                shortMode = (value & 0x80) != 0;
            }
            default -> {
                length.load(value >> 3);
                envelope.restart();
            }
        }
    }

    void step() {
        if (timer == 0) {
            timer = period;
            int feedback = (shift ^ (shift >> (shortMode ? 6 : 1))) & 1;
            shift = (shift >> 1) | (feedback << 14);
        } else {
            timer--;
        }
    }

    /**
     * How many coming CPU cycles may be run by {@link #skip} with the output unchanged: all of
     * them while the channel is silenced (length counter or volume 0); otherwise those before
     * the expiry that shifts a different bit into bit 0 (bit m of the register reaches bit 0
     * after m shifts, for m up to 14).
     */
    int quietSpan() {
        if (length.counter == 0 || envelope.output() == 0) {
            return Integer.MAX_VALUE;
        }
        final int differ = (shift ^ -(shift & 1)) & 0x7FFE;
        final int m = differ == 0 ? 15 : Integer.numberOfTrailingZeros(differ);
        return timer + (m - 1) * (period + 1);
    }

    /** {@code n} CPU cycles of {@link #step} at once: the timer's expiries counted, the LFSR shifted as many times. */
    void skip(int n) {
        final long run = TimerSkip.run(timer, period + 1, n);
        timer = (int) run;
        final int tap = shortMode ? 6 : 1;
        int s = shift;
        for (int e = TimerSkip.expiries(run); e > 0; e--) {
            s = (s >> 1) | (((s ^ (s >> tap)) & 1) << 14);
        }
        shift = s;
    }

    void quarterFrame() {
        envelope.clock(length.halt);
    }

    void halfFrame() {
        length.clock();
    }

    int output() {
        if (length.counter == 0 || (shift & 1) != 0) {
            return 0;
        }
        return envelope.output();
    }

    int shiftRegister() {
        return shift;
    }

    /** Those fields ({@link #hotDigestTerm}) equal {@code o}'s. */
    boolean sameHot(Noise o) {
        return ((timer ^ o.timer) | (shift ^ o.shift)) == 0;
    }

    /** The digest term of the fields {@link #step} changes every cycle (see Apu.digestTerm). */
    long hotDigestTerm() {
        return W0 * (((timer & 0xFFFFL) << 17) | (shift & 0xFFFFL));
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return S_LENGTH * length.digestTerm()
        + S_ENVELOPE * envelope.digestTerm()
        + W0 * (((period & 0xFFFFL) << 33)
            | ((timer & 0xFFFFL) << 17)
            | (DigestKeys.b(shortMode) << 16)
            | (shift & 0xFFFFL));
    }

    @Override
    public void state(StateVisitor s) {
        s.section("length", length);
        s.section("envelope", envelope);
        period = s.u16("period", period);
        timer = s.u16("timer", timer);
        shortMode = s.bool("shortMode", shortMode);
        shift = s.u16("shift", shift);
    }
}
