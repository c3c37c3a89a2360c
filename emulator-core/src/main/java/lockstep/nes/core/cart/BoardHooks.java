package lockstep.nes.core.cart;

/**
 * The hooks a board implements beyond plain banking, as bits the board declares
 * ({@link Mapper#declaredHooks}): the console calls the per-cycle and /IRQ hooks only of a board
 * that declares them, the PPU reads the page tables directly unless the board watches its bus,
 * and a board's digest term is cached between CPU writes unless its registers can change through
 * another hook. {@code BoardHooksTest} fails for a board that overrides a hook it does not declare.
 */
public final class BoardHooks {
    private BoardHooks() {
    }

    public static final int NONE = 0;
    /** {@link Mapper#cpuCycle}: the board counts CPU cycles (M2). */
    public static final int CPU_CYCLE = 1;
    /** {@link Mapper#irq}: the board can pull /IRQ low. */
    public static final int IRQ = 1 << 1;
    /** {@link Mapper#cpuRead}: the board decodes CPU reads itself (registers, RAM of its own). */
    public static final int CPU_READ = 1 << 2;
    /**
     * {@link Mapper#ppuRead}, {@link Mapper#ppuWrite} or {@link Mapper#ppuAddress}: the board
     * watches the PPU bus (CHR latches, A12, nametables of its own).
     */
    public static final int PPU_BUS = 1 << 3;
    /**
     * {@link Mapper#expansionAudio}: the board has a sound chip, which the APU steps in its
     * catch-up and mixes with the 2A03's channels (see {@code ExpansionAudio}).
     */
    public static final int AUDIO = 1 << 4;
    /**
     * {@link Mapper#ppuRegisterWrite}: the board watches CPU writes to the PPU's registers
     * ($2000-$3FFF), as the MMC5 watches PPUCTRL for the sprite size.
     */
    public static final int PPU_REGISTERS = 1 << 5;
    /**
     * With {@link #CPU_READ}: the board decodes only reads below $8000 itself, and its reads of
     * $8000-$FFFF are its page table's ({@link Mapper#plainRomPages}), without side effects, so
     * the console takes them without calling it. Not for a board whose $8000-$FFFF reads have
     * effects or other sources (the MMC5's vector fetch watch, the FDS's RAM).
     */
    public static final int CPU_READ_BELOW_8000 = 1 << 6;
    /** The hooks through which a board's registers can change other than by CPU writes to it. */
    static final int OUTSIDE_WRITES = CPU_CYCLE | CPU_READ | PPU_BUS | AUDIO | PPU_REGISTERS;
}
