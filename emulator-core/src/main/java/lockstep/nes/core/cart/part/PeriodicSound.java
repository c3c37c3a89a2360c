package lockstep.nes.core.cart.part;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.state.StateVisitor;

/**
 * A sound chip whose output changes only at an update every {@code period} CPU cycles and is held
 * between them: the Namco 163 (one channel's turn every 15 cycles) and the VRC7 (one sample every
 * 36). Its quiet span is the rest of the period, and skipping only counts cycles. The stepping
 * methods are public so that a chip can be driven by hand (unit tests); the console's APU is the
 * only caller otherwise.
 */
public abstract class PeriodicSound extends ExpansionAudio {
    private final int period;
    /** Cycles into the current period. */
    private int cycle;

    protected PeriodicSound(int period) {
        this.period = period;
    }

    /** True while the chip is stopped (disabled, held in reset): nothing runs, the output is fixed. */
    protected abstract boolean stopped();

    /** The update at the end of a period. */
    protected abstract void update();

    /** Back to the start of a period (power on, reset). */
    protected final void restartPeriod() {
        cycle = 0;
    }

    @Override
    public final void step() {
        if (stopped() || ++cycle < period) {
            return;
        }
        cycle = 0;
        update();
    }

    @Override
    public final int quietSpan() {
        return stopped() ? Integer.MAX_VALUE : period - 1 - cycle;
    }

    @Override
    public final void skip(int n) {
        if (!stopped()) {
            cycle += n;
        }
    }

    /** Visits the position in the period (for the chip's {@code state}). */
    protected final void visitPeriod(StateVisitor s) {
        cycle = s.u8("audio.cycle", cycle, period - 1);
    }
}
