package lockstep.nes.ppu;

/**
 * The PPU's view of the cartridge: pattern tables ($0000-$1FFF) and nametables ($2000-$3EFF,
 * mirroring applied by the cartridge). Palette RAM ($3F00-$3FFF) is inside the PPU and never
 * reaches this interface.
 */
public interface PpuBus {
    // While a hook below runs for a rendering access, the PPU's scanline() and dot() are the dot
    // the access happens on (a board that watches the bus may time its events by them).

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

    /**
     * Non-null when {@link #ppuRead} has no side effects and reads exactly
     * {@code chr[chrPage[a >> 10] | (a & 0x3FF)]} below $2000 and
     * {@code nt[ntPage[(a >> 10) & 3] | (a & 0x3FF)]} above (the arrays are live: bank switches
     * rewrite the page tables in place), and the board never looks at the PPU's address bus.
     * The PPU then reads these arrays directly instead of calling {@link #ppuRead}.
     */
    default Direct direct() {
        return null;
    }

    /** The live arrays behind a board's plain PPU reads (see {@link #direct}). */
    record Direct(byte[] chr, int[] chrPage, byte[] nt, int[] ntPage) {
    }

    /**
     * Non-null for a board (with {@link #direct} null) that looks at nothing on the PPU bus but
     * A12, and only at its changes: {@link #ppuRead} reads the {@link #direct} way after doing
     * what {@link #ppuAddress} does, and ppuAddress changes nothing while bit 12 of the address
     * equals {@code line[0]} (0 or 0x1000; the board keeps it up to date). The PPU then reads
     * its rendering fetches from the arrays and calls ppuAddress before one only when the
     * fetch's A12 differs from {@code line[0]}.
     */
    default A12Watch a12Watch() {
        return null;
    }

    /**
     * For an A12-watching board whose {@link A12Watch#dips} is true: the same as
     * {@code ppuAddress(lowAddr)} on the present dot and {@code ppuAddress(highAddr)}
     * {@code dots} dots later, A12 being high before, low at {@code lowAddr} and high at
     * {@code highAddr}, with no access between that changes it. Rendering with a pattern table at
     * $1000 makes such 4-dot dips (a nametable fetch between pattern fetches) up to twice a tile.
     */
    default void a12Dip(int lowAddr, int highAddr, int dots) {
        throw new UnsupportedOperationException("a12Dip on a board that does not offer it");
    }

    /**
     * The arrays behind an A12-watching board's reads, the A12 level it last saw (see
     * {@link #a12Watch}), and whether it takes {@link #a12Dip} (its page tables must then not
     * depend on A12, so the PPU may read between the two changes before telling it of both).
     */
    record A12Watch(Direct arrays, int[] line, boolean dips) {
    }
}
