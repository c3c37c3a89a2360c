package lockstep.nes.core.apu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/** The volume envelope of the pulse and noise channels (clocked on quarter frames). */
final class Envelope implements Digestible {
    private boolean constantVolume;
    /** The 4-bit volume / envelope period from the register. */
    private int volume;
    private boolean start;
    private int divider;
    private int decay;

    void power() {
        constantVolume = false;
        volume = 0;
        start = false;
        divider = 0;
        decay = 0;
    }

    /** Bits 0-4 of $4000/$4004/$400C. */
    void write(int value) {
        constantVolume = (value & 0x10) != 0;
        volume = value & 0x0F;
    }

    /** A write to the channel's 4th register restarts the envelope. */
    void restart() {
        start = true;
    }

    void clock(boolean loop) {
        if (start) {
            start = false;
            decay = 15;
            divider = volume;
        } else if (divider == 0) {
            divider = volume;
            if (decay > 0) {
                decay--;
            } else if (loop) {
                decay = 15;
            }
        } else {
            divider--;
        }
    }

    int output() {
        return constantVolume ? volume : decay;
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return W0 * ((DigestKeys.b(constantVolume) << 25)
            | ((volume & 0xFFL) << 17)
            | (DigestKeys.b(start) << 16)
            | ((divider & 0xFFL) << 8)
            | (decay & 0xFFL));
    }

    @Override
    public void state(StateVisitor s) {
        constantVolume = s.bool("constantVolume", constantVolume);
        volume = s.u8("volume", volume, 15);
        start = s.bool("start", start);
        divider = s.u8("divider", divider, 15);
        decay = s.u8("decay", decay, 15);
    }
}
