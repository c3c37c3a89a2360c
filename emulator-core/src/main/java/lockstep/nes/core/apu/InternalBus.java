package lockstep.nes.core.apu;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.StateVisitor;

/**
 * The 2A03's internal data bus, between the CPU core and its registers, where it differs from the
 * external one. Every access drives both buses, except a read of $4015: the status register is
 * read inside the chip and drives the internal bus alone, the external bus (the console's open
 * bus) keeping the last value driven on it. Only the status register reads the internal bus
 * back: its bit 5 is not driven and shows the internal bus's bit 5, which is the value of the
 * previous access unless that was a $4015 read too (a DMA's halt and alignment cycles re-reading
 * $4015, or the DMC's fetch conflicting with it; the conflict's external fetch drives only the
 * external bus and leaves the status byte on the internal one).
 *
 * <p>So the bus is the last $4015 read's value and cycle: it is the internal bus on the next
 * cycle only, and the external bus after any other access. Described inside the APU's section
 * (which counts its changes: a $4015 read is an APU access). See docs/design/cpu.md.
 */
final class InternalBus {
    /** The value the last $4015 read put on the internal bus. */
    private int value;
    /** The CPU cycle of that read ({@link Long#MIN_VALUE}: none since power). */
    private long cycle = Long.MIN_VALUE;

    void power() {
        value = 0;
        cycle = Long.MIN_VALUE;
    }

    /**
     * The internal bus as an access on cycle {@code now} finds it: the last $4015 read's value
     * if that read was on the previous cycle, else the external bus {@code external}.
     */
    int read(long now, int external) {
        return now - 1 == cycle ? value : external;
    }

    /** A $4015 read on cycle {@code now} drove {@code v} onto the internal bus. */
    void drive(long now, int v) {
        value = v & 0xFF;
        cycle = now;
    }

    /**
     * The fields' part of the APU's digest term: the value packed alone in the section's third
     * word (after the frame counter's two), the cycle the fourth.
     */
    long term() {
        return DigestKeys.W2 * value + DigestKeys.W3 * cycle;
    }

    void visit(StateVisitor s) {
        value = s.u8("internalBus", value);
        cycle = s.i64("internalBusCycle", cycle, Long.MIN_VALUE, Long.MAX_VALUE);
    }
}
