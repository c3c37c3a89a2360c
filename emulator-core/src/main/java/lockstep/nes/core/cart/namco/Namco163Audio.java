package lockstep.nes.core.cart.namco;

import lockstep.nes.core.cart.part.PeriodicSound;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * The Namco 163's wavetable sound (NESdev "Namco 163 audio"). Its 128 bytes of sound RAM hold
 * 4-bit samples (low nibble first) and, from $40, eight channels' registers, channel 8 at
 * $78-$7F down to channel 1 at $40-$47:
 * <pre>
 *  +0 frequency bits 0-7    +1 phase bits 0-7    +2 frequency bits 8-15   +3 phase bits 8-15
 *  +4 LLLL LLFF: length 256 - (L &lt;&lt; 2) samples, frequency bits 16-17     +5 phase bits 16-23
 *  +6 wave address (in samples)   +7 volume (bits 0-3); $7F bits 4-6: enabled channels - 1
 * </pre>
 * The chip cannot run every channel at once: every 15 CPU cycles it updates one channel, from
 * channel 8 down through the enabled ones, adding the frequency to the phase (modulo the
 * length, in 16.16 samples), writing the phase back to the RAM, and putting that channel's
 * (sample - 8) x volume on its DAC, where it stays until the next channel's turn (the hardware's
 * time multiplexing: more channels, each quieter and slower). Bit 6 of $E000 silences the chip.
 *
 * <p>The board's mixing resistor sets the level against the 2A03, and NES 2.0 submappers name it
 * (NESdev "INES Mapper 019", submapper table): 3 is 11.0-13.0 dB louder than the APU, 4 16.0-17.0
 * dB, 5 18.0-19.5 dB; 1 and 2 have no expansion sound. Each range's middle is taken, for a
 * full-swing channel (samples 0 and 15) at volume 15 against a 2A03 pulse at volume 15, peak to
 * peak. Submapper 0 leaves the level unspecified; it gets submapper 3's, the quietest board.
 */
public final class Namco163Audio extends PeriodicSound {
    /** CPU cycles a channel update takes. */
    static final int UPDATE_CYCLES = 15;

    /** Per submapper 0-5, a full-swing channel at volume 15 against a 2A03 pulse at volume 15, in millibels (0: silent). */
    private static final int[] SUBMAPPER_MILLIBELS = {1200, 0, 0, 1200, 1650, 1875};
    /** The DAC's swing at volume 15, samples 0 to 15: (15 - 8) x 15 - (0 - 8) x 15. */
    static final int DAC_SWING = 225;

    private final Memory ram;
    /** The DAC's swing ({@link #DAC_SWING}) in the mixer's units: the board's level; 0 when the sound is not wired. */
    private final int fullSwing;
    /** The channel updated next (7 = channel 8, at $78). */
    private int channel = 7;
    /** The DAC's input: the last updated channel's (sample - 8) x volume. */
    private int dac;
    /** $E000 bit 6: sound disabled. */
    private boolean disabled;

    public Namco163Audio(Memory ram, int submapper) {
        super(UPDATE_CYCLES);
        this.ram = ram;
        this.fullSwing = fullSwing(submapper);
    }

    /** The DAC's full swing in the mixer's units on a board of this NES 2.0 submapper (0 for no sound). */
    static int fullSwing(int submapper) {
        final int mb = submapper < SUBMAPPER_MILLIBELS.length ? SUBMAPPER_MILLIBELS[submapper] : SUBMAPPER_MILLIBELS[0];
        return mb == 0 ? 0 : louder(APU_PULSE_FULL, mb);
    }

    @Override
    public void power() {
        restartPeriod();
        channel = 7;
        dac = 0;
        disabled = false;
    }

    /** A CPU read of sound RAM byte {@code index} (the chip writes phases there). */
    public int read(int index) {
        catchUp();
        return ram.read(index);
    }

    /** A CPU write of sound RAM byte {@code index}. */
    public void write(int index, int value) {
        catchUp();
        ram.write(index, value);
        changed();
    }

    /** A write to $E000: bit 6 disables the sound. */
    void writeControl(int value) {
        catchUp();
        disabled = (value & 0x40) != 0;
        changed();
    }

    @Override
    protected boolean stopped() {
        return disabled;
    }

    /** One channel's turn: its phase advanced and written back, its sample on the DAC. */
    @Override
    protected void update() {
        final Memory m = ram;
        final int base = 0x40 + 8 * channel;
        final int frequency = m.read(base) | m.read(base + 2) << 8 | (m.read(base + 4) & 3) << 16;
        int phase = m.read(base + 1) | m.read(base + 3) << 8 | m.read(base + 5) << 16;
        final int length = 256 - (m.read(base + 4) & 0xFC);
        phase = (phase + frequency) % (length << 16);
        m.write(base + 1, phase & 0xFF);
        m.write(base + 3, (phase >> 8) & 0xFF);
        m.write(base + 5, phase >> 16);
        final int sample = ((phase >> 16) + m.read(base + 6)) & 0xFF;
        final int nibble = (m.read(sample >> 1) >> ((sample & 1) << 2)) & 0x0F;
        dac = (nibble - 8) * (m.read(base + 7) & 0x0F);
        final int last = 7 - ((m.read(0x7F) >> 4) & 7);
        channel = channel <= last ? 7 : channel - 1;
    }

    @Override
    protected int output() {
        return disabled ? 0 : dac * fullSwing / DAC_SWING;
    }

    @Override
    public void state(StateVisitor s) {
        visitPeriod(s);
        channel = s.u8("audio.channel", channel, 7);
        dac = s.i32("audio.dac", dac, -120, 105);
        disabled = s.bool("audio.disabled", disabled);
    }
}
