package lockstep.nes.ppu;

/**
 * The PPU's view of the cartridge: pattern tables ($0000-$1FFF) and nametables ($2000-$3EFF,
 * mirroring applied by the cartridge). Palette RAM ($3F00-$3FFF) is inside the PPU and never
 * reaches this interface.
 */
public interface PpuBus {
    /** A PPU read of {@code addr} (0..$3EFF); the cartridge sees the address on the bus. */
    int ppuRead(int addr);

    /** A PPU write of {@code value} to {@code addr} (0..$3EFF). */
    void ppuWrite(int addr, int value);

    /**
     * The PPU put {@code addr} on its address bus without a read (e.g. after a $2006 write).
     * Mappers that watch A12 (MMC3) or CHR latches use it.
     */
    default void ppuAddress(int addr) {
    }
}
