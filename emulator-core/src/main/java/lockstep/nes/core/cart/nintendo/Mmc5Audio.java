package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.apu.Mmc5Pulse;
import lockstep.nes.state.StateVisitor;

/**
 * The MMC5's sound: two pulse channels ({@link Mmc5Pulse}, $5000-$5007, enabled by $5015) and
 * an 8-bit PCM DAC ($5010 mode and IRQ, $5011 data). The pulses' envelopes and length counters
 * are clocked at 240 Hz by a divider of the CPU clock. The PCM takes $5011 writes in write mode
 * or the bytes the CPU reads from $8000-$BFFF in read mode; a $00 leaves the DAC as it is and
 * trips the PCM IRQ instead (any other value clears the trip); reading $5010 gives the IRQ
 * (trip and enable) in bit 7 and clears the trip.
 *
 * <p>Output: all channels in the polarity opposite to the 2A03's (NESdev "MMC5 audio"); a pulse
 * at volume 15 as loud as a 2A03 pulse at volume 15 (0 dB: NESdev "NSFe", the mixe chunk's MMC5
 * default), its DAC linear. The PCM's level is not documented; here its 255 steps span what the
 * 2A03's DMC spans in 127.
 */
public final class Mmc5Audio extends ExpansionAudio {
    /** CPU cycles per 240 Hz clock (the NTSC CPU clock / 240). */
    static final int QUARTER_FRAME = 7457;
    /** One PCM step: half of a 2A03 DMC step at low levels (0.00335 of the mixer's 1.0). */
    static final int PCM_STEP = 54;

    private final Mmc5Pulse pulse1 = new Mmc5Pulse();
    private final Mmc5Pulse pulse2 = new Mmc5Pulse();
    /** Cycles until the next 240 Hz clock (1 to {@link #QUARTER_FRAME}). */
    private int divider;
    private int pcm;
    private boolean pcmReadMode;
    private boolean pcmIrqEnabled;
    private boolean pcmTrip;

    @Override
    public void power() {
        pulse1.power();
        pulse2.power();
        divider = QUARTER_FRAME;
        pcm = 0;
        pcmReadMode = false;
        pcmIrqEnabled = false;
        pcmTrip = false;
    }

    /** A CPU write of $5000-$5015. */
    public void write(int addr, int value) {
        catchUp();
        switch (addr) {
            case 0x5000, 0x5001, 0x5002, 0x5003 -> pulse1.write(addr & 3, value);
            case 0x5004, 0x5005, 0x5006, 0x5007 -> pulse2.write(addr & 3, value);
            case 0x5010 -> {
                pcmReadMode = (value & 1) != 0;
                pcmIrqEnabled = (value & 0x80) != 0;
            }
            case 0x5011 -> {
                if (!pcmReadMode) {
                    dac(value);
                }
            }
            case 0x5015 -> {
                pulse1.enable((value & 1) != 0);
                pulse2.enable((value & 2) != 0);
            }
            default -> {
                return;
            }
        }
        changed();
    }

    /** A CPU read of $8000-$BFFF: in read mode the byte read goes to the DAC. */
    void prgRead(int value) {
        if (pcmReadMode) {
            catchUp();
            dac(value);
            changed();
        }
    }

    private void dac(int value) {
        if (value == 0) {
            pcmTrip = true;
        } else {
            pcmTrip = false;
            pcm = value;
        }
    }

    /** $5010 read: the IRQ in bit 7, read mode in bit 0; the read clears the trip. */
    int readPcmStatus() {
        final int v = peekPcmStatus();
        pcmTrip = false;
        return v;
    }

    int peekPcmStatus() {
        return (irq() ? 0x80 : 0) | (pcmReadMode ? 1 : 0);
    }

    /** $5015 read: which pulses' length counters run (as of the APU's catch-up to now). */
    public int readStatus() {
        catchUp();
        return status();
    }

    /** $5015 without catching the APU up (a peek). */
    int status() {
        return (pulse1.playing() ? 1 : 0) | (pulse2.playing() ? 2 : 0);
    }

    /** The PCM IRQ: a $00 met with the IRQ enabled. */
    boolean irq() {
        return pcmTrip && pcmIrqEnabled;
    }

    @Override
    protected void step() {
        if (--divider == 0) {
            divider = QUARTER_FRAME;
            pulse1.quarterFrame();
            pulse2.quarterFrame();
        }
        pulse1.step();
        pulse2.step();
    }

    @Override
    protected int output() {
        return -((pulse1.output() + pulse2.output()) * APU_PULSE_FULL / 15 + PCM_STEP * pcm);
    }

    @Override
    protected int quietSpan() {
        return Math.min(divider - 1, Math.min(pulse1.quietSpan(), pulse2.quietSpan()));
    }

    @Override
    protected void skip(int n) {
        divider -= n;
        pulse1.skip(n);
        pulse2.skip(n);
    }

    @Override
    public void state(StateVisitor s) {
        s.section("pulse1", pulse1);
        s.section("pulse2", pulse2);
        divider = s.i32("divider", divider, 1, QUARTER_FRAME);
        pcm = s.u8("pcm", pcm);
        pcmReadMode = s.bool("pcmReadMode", pcmReadMode);
        pcmIrqEnabled = s.bool("pcmIrqEnabled", pcmIrqEnabled);
        pcmTrip = s.bool("pcmTrip", pcmTrip);
    }
}
