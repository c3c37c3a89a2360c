package lockstep.nes.core.cart;

import lockstep.nes.state.StateVisitor;

/**
 * A board whose whole state is one 8-bit latch, {@code reg}: written anywhere in $8000-$FFFF
 * (where the ROM drives the bus too, so bus conflicts apply unless the board keeps the ROM off
 * the bus during writes), or, on the boards that decode it there, anywhere in $6000-$7FFF. A
 * board with the latch at $8000-$FFFF may have PRG-RAM at $6000-$7FFF, written as its
 * {@code updateBanks} maps it. Power clears the latch; a subclass only says how it maps the banks.
 */
public abstract class LatchMapper extends Mapper {
    /** Where the latch is decoded. */
    public enum Window { ROM, LOW }

    private final Window window;
    /** A write to the latch stores the CPU's value ANDed with the ROM's ({@link #busConflict}). */
    private final boolean busConflicts;
    /** The latch's name in the described state. */
    private final String name;
    protected int reg;

    protected LatchMapper(Cartridge cart, Window window) {
        this(cart, cart.totalPrgRamSize(), window);
    }

    protected LatchMapper(Cartridge cart, int prgRamSize, Window window) {
        super(cart, prgRamSize);
        this.window = window;
        this.busConflicts = window == Window.ROM;
        this.name = "reg";
    }

    /**
     * A latch at $8000-$FFFF, described as {@code name}, with the cartridge's PRG-RAM at
     * $6000-$7FFF; {@code busConflicts} when the ROM drives the bus during the write.
     */
    protected LatchMapper(Cartridge cart, String name, boolean busConflicts) {
        super(cart);
        this.window = Window.ROM;
        this.busConflicts = busConflicts;
        this.name = name;
    }

    @Override
    public final void cpuWrite(int addr, int value) {
        if (window == Window.ROM ? addr >= 0x8000 : addr >= 0x6000 && addr < 0x8000) {
            reg = busConflicts ? busConflict(addr, value) : value;
            updateBanks();
        } else if (addr >= 0x6000 && window == Window.ROM) {
            writePrgRam(addr, value);
        }
    }

    @Override
    protected final void powerOn() {
        reg = 0;
    }

    @Override
    protected final void registers(StateVisitor s) {
        reg = s.u8(name, reg);
    }
}
