package lockstep.nes.core.apu;

import lockstep.nes.core.Dma;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The 2A03's APU: pulse x2, triangle, noise, DMC, frame counter.
 *
 * <p>TODO(apu issue): skeleton only.
 */
public final class Apu implements Stateful {
    private final Dma dma;

    public Apu(Dma dma) {
        this.dma = dma;
    }

    public void power() {
    }

    public void reset() {
    }

    /** One CPU cycle; called at the start of every CPU cycle, before the bus access. */
    public void cycle() {
    }

    /** CPU read of $4015 (the only readable APU register); returns the value with open-bus bit 5. */
    public int read(int addr, int openBus) {
        return openBus;
    }

    /** Read without side effects. */
    public int peek(int addr, int openBus) {
        return openBus;
    }

    /** CPU write to $4000-$4013, $4015 or $4017. */
    public void write(int addr, int value) {
    }

    /** True while the frame counter or the DMC pulls /IRQ low. */
    public boolean irq() {
        return false;
    }

    /** The address the DMC's memory reader wants next (for DMC DMA). */
    public int dmcReadAddress() {
        return 0x8000;
    }

    /** The byte DMC DMA fetched. */
    public void dmcDmaDone(int value) {
    }

    @Override
    public void state(StateVisitor s) {
    }
}
