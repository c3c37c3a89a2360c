package lockstep.nes.core.apu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.NotState;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/** The noise channel ($400C-$400F): a 15-bit LFSR with a 32767-step mode and a short 93-step mode. */
final class Noise implements Digestible {
    private static final long S_LENGTH = DigestKeys.section("length");
    private static final long S_ENVELOPE = DigestKeys.section("envelope");


    /*
     * The LFSR's shift is a permutation of the 15-bit states (bits 0-13 move down, and the old
     * bit 0 can be recovered from the new bit 14), so every state lies on a cycle and many
     * shifts at once are a move along that cycle. Long mode (tap 1): 0 alone, and one cycle
     * through the other 32767 states. Short mode (tap 6): 0 alone, one cycle of 31 and 352 of
     * 93; as 31 divides 93, every state comes back after 93 shifts. The tables list the states
     * in shift order: long mode as one run of 32767, short mode as blocks of 93 (the 31-cycle
     * written three times), with each state's position; {@link #shifted} moves along them.
     */
    private static final int LONG_PERIOD = 32767;
    private static final int SHORT_PERIOD = 93;
    /** Fewer shifts than this are cheaper to run one by one than to look up. */
    private static final int TABLE_MIN = 16;
    private static final char[] LONG_ORDER = new char[LONG_PERIOD];
    private static final char[] LONG_INDEX = new char[1 << 15];
    private static final char[] SHORT_ORDER = new char[SHORT_PERIOD * 353];
    private static final char[] SHORT_INDEX = new char[1 << 15];

    static {
        int s = 1;
        for (int i = 0; i < LONG_PERIOD; i++) {
            LONG_ORDER[i] = (char) s;
            LONG_INDEX[s] = (char) i;
            s = shiftOnce(s, 1);
        }
        if (s != 1) {
            throw new AssertionError("long-mode LFSR period");
        }
        boolean[] seen = new boolean[1 << 15];
        int base = 0;
        for (int start = 1; start < 1 << 15; start++) {
            if (seen[start]) {
                continue;
            }
            s = start;
            for (int j = 0; j < SHORT_PERIOD; j++) {
                if (!seen[s]) {
                    seen[s] = true;
                    SHORT_INDEX[s] = (char) (base + j);
                }
                SHORT_ORDER[base + j] = (char) s;
                s = shiftOnce(s, 6);
            }
            if (s != start) {
                throw new AssertionError("short-mode LFSR cycle of " + start);
            }
            base += SHORT_PERIOD;
        }
        if (base != SHORT_ORDER.length) {
            throw new AssertionError("short-mode LFSR cycles");
        }
    }

    /** Timer periods in CPU cycles, the region's ({@link ApuPeriods}). Fixed wiring, not state. */
    @NotState("the region's period table: fixed wiring")
    private final int[] periods;
    final LengthCounter length = new LengthCounter();
    private final Envelope envelope = new Envelope();

    private int period;
    private int timer;
    private boolean shortMode;
    private int shift;

    Noise() {
        this(Region.NTSC);
    }

    Noise(Region region) {
        periods = ApuPeriods.noise(region);
    }

    void power() {
        length.power();
        envelope.power();
        period = periods[0] - 1;
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
                period = periods[value & 0x0F] - 1;
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
            shift = shiftOnce(shift, shortMode ? 6 : 1);
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
        shift = shifted(shift, shortMode, TimerSkip.expiries(run));
    }

    /** One shift of the register with feedback from bit 0 and bit {@code tap}. */
    private static int shiftOnce(int s, int tap) {
        return (s >> 1) | (((s ^ (s >> tap)) & 1) << 14);
    }

    /** The register {@code s} after {@code e} shifts (e >= 0): exactly e calls of {@link #shiftOnce}, in constant time. */
    static int shifted(int s, boolean shortMode, int e) {
        final int tap = shortMode ? 6 : 1;
        // Few shifts run one by one; so does the first of a loaded state holding bit 15 (which
        // that shift moves into the 15-bit range the tables cover).
        while (e > 0 && (e < TABLE_MIN || s > 0x7FFF)) {
            s = shiftOnce(s, tap);
            e--;
        }
        if (e == 0) {
            return s;
        }
        if (s == 0) {
            return 0;
        }
        if (shortMode) {
            final int i = SHORT_INDEX[s];
            final int at = i % SHORT_PERIOD;
            int to = at + e % SHORT_PERIOD;
            if (to >= SHORT_PERIOD) {
                to -= SHORT_PERIOD;
            }
            return SHORT_ORDER[i - at + to];
        }
        int to = LONG_INDEX[s] + e % LONG_PERIOD;
        if (to >= LONG_PERIOD) {
            to -= LONG_PERIOD;
        }
        return LONG_ORDER[to];
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
        period = s.u16("period", period, 4067);
        timer = s.u16("timer", timer, 4067);
        shortMode = s.bool("shortMode", shortMode);
        shift = s.u16("shift", shift, 0x7FFF);
    }
}
