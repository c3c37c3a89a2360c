package lockstep.nes.ppu;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.StateVisitor;

/**
 * The PPU's I/O data bus as a decay register: a register read returns its value in the bits the
 * register does not drive, and each bit decays to 0 when not refreshed for about 600 ms.
 */
final class OpenBus {
    /** Frames an open-bus bit holds its value before it decays to 0 (about 600 ms). */
    static final int DECAY_FRAMES = 36;

    int value;
    /** The frame at which each bit was last driven. */
    final int[] refreshed = new int[8];

    void power() {
        value = 0;
        java.util.Arrays.fill(refreshed, 0);
    }

    /** The register's value at frame {@code now}, with bits not refreshed for a while decayed to 0. */
    int decayed(long now) {
        int bits = value;
        if (bits != 0) {
            for (int i = 0; i < 8; i++) {
                if ((bits & (1 << i)) != 0 && (int) now - refreshed[i] > DECAY_FRAMES) {
                    bits &= ~(1 << i);
                }
            }
            value = bits;
        }
        return bits;
    }

    /**
     * Drives {@code data}'s bits selected by {@code driven} onto the bus at frame {@code now}
     * (refreshing them); the other bits come from the decay register. Returns the bus value.
     */
    int latch(int data, int driven, long now) {
        final int result = (data & driven) | (decayed(now) & ~driven);
        value = result;
        for (int i = 0; i < 8; i++) {
            if ((driven & (1 << i)) != 0) {
                refreshed[i] = (int) now;
            }
        }
        return result;
    }

    /** This unit's part of the PPU's digest term; it changes on register accesses only. */
    long term() {
        return W3 * (value & 0xFFL)
            + W4 * refreshed[0]
            + W5 * refreshed[1]
            + W6 * refreshed[2]
            + W7 * refreshed[3]
            + W8 * refreshed[4]
            + W9 * refreshed[5]
            + W10 * refreshed[6]
            + W11 * refreshed[7];
    }

    void state(StateVisitor s) {
        value = s.u8("openBus", value);
        s.ints("openBusFrame", refreshed, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }
}
