package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;
import lockstep.nes.state.Stateful;

/**
 * A cartridge's sound chip, whose output the console adds to the 2A03's mix (the cartridge's
 * audio-in pin). The board owns the chip and describes its state with its registers; the APU
 * steps it once per CPU cycle in its own catch-up, so the chip runs behind the CPU exactly as
 * the APU does and its samples line up with the 2A03's to the cycle. A board declares
 * {@code BoardHooks.AUDIO} and returns its chip from {@code Mapper.expansionAudio}; the APU of a
 * board without one never looks here (see docs/design/audio.md).
 *
 * <p>A chip has no event the CPU sees without reading it, so the APU's deadline ignores it;
 * every CPU read or write of the chip goes through {@link #catchUp} first, and every write that
 * may change what {@link #quietSpan} found ends with {@link #changed}.
 */
public abstract class ExpansionAudio implements Stateful {
    /** The APU that steps this chip (null for a chip driven by hand, e.g. in unit tests). Wiring. */
    @NotState("wiring: the APU that steps the chip")
    private Apu apu;

    void attach(Apu apu) {
        this.apu = apu;
    }

    /** Before the CPU reads or changes the chip: the APU, and so the chip, caught up to the present cycle. */
    protected final void catchUp() {
        if (apu != null) {
            apu.sync();
        }
    }

    /** After the CPU changed the chip: the APU's quiet span, found from the old state, is dropped. */
    protected final void changed() {
        if (apu != null) {
            apu.expansionChanged();
        }
    }

    /**
     * The chip's output at the console's present cycle, as {@link #output} gives it to the mixer
     * (the APU caught up first): for tests and debuggers, which read the chip's samples exactly.
     */
    public final int outputNow() {
        catchUp();
        return output();
    }

    /** Power on: registers and counters to their power-on values. */
    public abstract void power();

    /** One CPU cycle (M2) of the chip, after the 2A03's channels stepped the same cycle. */
    protected abstract void step();

    /**
     * The chip's output now, in the 2A03 mixer's units ({@link #FULL_SCALE} is the mixer's 1.0),
     * already at its level relative to the 2A03. At most {@link #MAX_OUTPUT} in magnitude.
     */
    protected abstract int output();

    /**
     * How many coming cycles {@link #skip} may run: cycles in which {@link #output} stays what it
     * is and only counters run. 0 when the next cycle must be {@link #step}ped.
     */
    protected abstract int quietSpan();

    /** {@code n} cycles of {@link #step}, at most {@link #quietSpan}: the output does not change. */
    protected abstract void skip(int n);

    /** The mixer's 1.0: the 2A03's mix spans 0 to about this. */
    public static final int FULL_SCALE = Mixer.FULL_SCALE;

    /**
     * One step of a 2A03 pulse at low levels: NESdev's linear approximation of the pulse mix,
     * 0.00752 per step, in the mixer's units. Expansion levels are given relative to it.
     */
    public static final int PULSE_STEP = 241;

    /** A 2A03 pulse at volume 15 alone, in the mixer's units (yardstick of the NESdev levels). */
    public static final int APU_PULSE_FULL = Mixer.pulse(15);

    /**
     * {@code reference} made {@code millibels} (hundredths of a dB) louder, as an amplitude,
     * rounded: how the NESdev levels, given in dB against a 2A03 pulse, become a chip's scale.
     * Computed once when a chip is built (StrictMath: the same integer on every JVM).
     */
    public static int louder(int reference, int millibels) {
        return (int) StrictMath.round(reference * StrictMath.pow(10.0, millibels / 2000.0));
    }

    /** The largest output a chip may add (the sum with the 2A03's stays within the audio sink's range). */
    public static final int MAX_OUTPUT = 3 * FULL_SCALE;
}
