package lockstep.nes.core.cart.part;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The IRQ counter Konami put in the VRC4, VRC6 and VRC7: an 8-bit up-counter reloaded from a
 * latch when it overflows, clocked every CPU cycle (cycle mode) or once per scanline through a
 * prescaler that counts 341 PPU dots, 3 per CPU cycle (scanline mode).
 */
public final class VrcIrq implements Stateful {
    private int latch;
    private int control;
    private int counter;
    private int prescaler = 341;
    private boolean line;

    public void power() {
        latch = 0;
        control = 0;
        counter = 0;
        prescaler = 341;
        line = false;
    }

    public void writeLatch(int value) {
        latch = value & 0xFF;
    }

    public void writeLatchLow(int value) {
        latch = (latch & 0xF0) | (value & 0x0F);
    }

    public void writeLatchHigh(int value) {
        latch = (latch & 0x0F) | ((value & 0x0F) << 4);
    }

    /** Control: bit 0 enable after acknowledge, bit 1 enable (reloads), bit 2 cycle mode. */
    public void writeControl(int value) {
        control = value & 7;
        if ((value & 2) != 0) {
            counter = latch;
            prescaler = 341;
        }
        line = false;
    }

    /** Acknowledge: the line is released and "enable after acknowledge" becomes the enable. */
    public void acknowledge() {
        line = false;
        control = (control & 5) | ((control & 1) << 1);
    }

    public void cpuCycle() {
        if ((control & 2) == 0) {
            return;
        }
        if ((control & 4) != 0) {
            clock();
        } else {
            prescaler -= 3;
            if (prescaler <= 0) {
                prescaler += 341;
                clock();
            }
        }
    }

    private void clock() {
        if (counter == 0xFF) {
            counter = latch;
            line = true;
        } else {
            counter++;
        }
    }

    public boolean line() {
        return line;
    }

    /**
     * The described fields packed as the digest packs them ({@code DigestTerm}) when they start
     * a word: latch, control, counter, prescaler, line (57 bits). Of these, a CPU cycle moves
     * only the counter, the prescaler and the line.
     */
    public long digestWord() {
        return ((long) (latch & 0xFF) << 49) | ((long) (control & 0xFF) << 41) | ((long) (counter & 0xFF) << 33)
                | ((prescaler & 0xFFFFFFFFL) << 1) | (line ? 1L : 0L);
    }

    @Override
    public void state(StateVisitor s) {
        latch = s.u8("irqLatch", latch);
        control = s.u8("irqControl", control);
        counter = s.u8("irqCounter", counter);
        prescaler = s.i32("prescaler", prescaler, 1, 341);
        line = s.bool("irqLine", line);
    }
}
