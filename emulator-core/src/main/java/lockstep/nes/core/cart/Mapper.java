package lockstep.nes.core.cart;

import lockstep.nes.ppu.PpuBus;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * A cartridge board: CPU $4020-$FFFF, the PPU's pattern and nametable space, and CIRAM (the
 * console's 2 KiB of nametable RAM, which the board maps). Subclasses are small and final.
 */
public abstract class Mapper implements PpuBus, Stateful {
    /** Returned by {@link #cpuRead} when the cartridge does not drive the data bus. */
    public static final int OPEN_BUS = -1;

    protected final Cartridge cart;
    /** The console's 2 KiB nametable RAM (4 KiB for four-screen boards). */
    protected final Memory ciram;

    protected Mapper(Cartridge cart) {
        this.cart = cart;
        this.ciram = new Memory("ciram", Memory.CIRAM, cart.mirroring() == Mirroring.FOUR_SCREEN ? 4096 : 2048);
    }

    /** CPU read of $4020-$FFFF; {@link #OPEN_BUS} when nothing answers. */
    public abstract int cpuRead(int addr);

    /** CPU read without side effects. */
    public int cpuPeek(int addr) {
        return cpuRead(addr);
    }

    /** CPU write to $4020-$FFFF. */
    public abstract void cpuWrite(int addr, int value);

    /** Called once per CPU cycle, for boards with cycle counters. */
    public void cpuCycle() {
    }

    /** True while the board pulls /IRQ low. */
    public boolean irq() {
        return false;
    }

    public void power() {
    }

    public void reset() {
    }

    public Cartridge cartridge() {
        return cart;
    }

    @Override
    public void state(StateVisitor s) {
        ciram.state(s);
    }
}
