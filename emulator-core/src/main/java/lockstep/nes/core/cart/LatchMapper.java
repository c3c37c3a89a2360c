package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/**
 * A board whose whole state is one 8-bit latch, {@code reg}: written anywhere in $8000-$FFFF
 * (where the ROM drives the bus too, so bus conflicts apply), or, on the boards that decode it
 * there, anywhere in $6000-$7FFF. Power clears it; a subclass only says how it maps the banks.
 */
public abstract class LatchMapper extends Mapper {
    /** Where the latch is decoded. */
    public enum Window { ROM, LOW }

    private final Window window;
    protected int reg;

    protected LatchMapper(Cartridge cart, Window window) {
        super(cart);
        this.window = window;
    }

    protected LatchMapper(Cartridge cart, int prgRamSize, Window window) {
        super(cart, prgRamSize);
        this.window = window;
    }

    @Override
    public final void cpuWrite(int addr, int value) {
        if (window == Window.ROM ? addr >= 0x8000 : addr >= 0x6000 && addr < 0x8000) {
            reg = window == Window.ROM ? busConflict(addr, value) : value;
            updateBanks();
        }
    }

    @Override
    protected final void powerOn() {
        reg = 0;
    }

    @Override
    protected final void registers(StateVisitor s) {
        reg = s.u8("reg", reg);
    }
}
