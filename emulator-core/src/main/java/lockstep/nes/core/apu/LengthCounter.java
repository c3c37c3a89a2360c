package lockstep.nes.core.apu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * A channel's length counter. Writes to the halt flag and to the counter (through the
 * 4th register) take effect at the next APU step, after that step's frame-counter clock: a
 * reload that lands on the same cycle as a half-frame clock of a nonzero counter is ignored,
 * and a halt change lands after the clock (blargg's len_halt_timing / len_reload_timing).
 */
final class LengthCounter implements Digestible {
    private static final int[] TABLE = {
        10, 254, 20, 2, 40, 4, 80, 6, 160, 8, 60, 10, 14, 12, 26, 14,
        12, 16, 24, 18, 48, 20, 96, 22, 192, 24, 72, 26, 16, 28, 32, 30,
    };

    /** The length the 5-bit index of a channel's 4th register loads. */
    static int lengthOf(int index) {
        return TABLE[index & 0x1F];
    }

    boolean enabled;
    boolean halt;
    private boolean newHalt;
    int counter;
    private int reloadValue;
    private int previousValue;

    void power() {
        enabled = false;
        halt = false;
        newHalt = false;
        counter = 0;
        reloadValue = 0;
        previousValue = 0;
    }

    /** The halt flag (the envelope's loop flag, or the triangle's control flag) as written. */
    void writeHalt(boolean value) {
        newHalt = value;
    }

    /** A write of the length index (bits 3-7 of the channel's 4th register). */
    void load(int index) {
        if (enabled) {
            reloadValue = TABLE[index & 0x1F];
            previousValue = counter;
        }
    }

    /** Half-frame clock. */
    void clock() {
        if (counter > 0 && !halt) {
            counter--;
        }
    }

    /**
     * Applies the writes of the previous cycle (after the frame counter has run); true when
     * anything changed (the APU's digest cache must then be refreshed).
     */
    boolean applyWrites() {
        boolean changed = halt != newHalt;
        if (reloadValue != 0) {
            if (counter == previousValue) {
                counter = reloadValue;
            }
            reloadValue = 0;
            changed = true;
        }
        halt = newHalt;
        return changed;
    }

    /** True while a write waits for {@link #applyWrites}. */
    boolean pending() {
        return reloadValue != 0 || halt != newHalt;
    }

    void setEnabled(boolean value) {
        if (!value) {
            counter = 0;
        }
        enabled = value;
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return W0 * ((DigestKeys.b(enabled) << 26)
            | (DigestKeys.b(halt) << 25)
            | (DigestKeys.b(newHalt) << 24)
            | ((counter & 0xFFL) << 16)
            | ((reloadValue & 0xFFL) << 8)
            | (previousValue & 0xFFL));
    }

    @Override
    public void state(StateVisitor s) {
        enabled = s.bool("enabled", enabled);
        halt = s.bool("halt", halt);
        newHalt = s.bool("newHalt", newHalt);
        counter = s.u8("counter", counter, 254);
        reloadValue = s.u8("reloadValue", reloadValue, 254);
        previousValue = s.u8("previousValue", previousValue, 254);
    }
}
