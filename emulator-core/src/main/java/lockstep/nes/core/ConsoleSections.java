package lockstep.nes.core;

import lockstep.nes.state.DigestKeys;

/**
 * The digest's factors of the sections of {@link Console#state} ({@link DigestKeys#section} of
 * each name), shared by the console's digest term and the representation digest's.
 */
public final class ConsoleSections {
    public static final long CONSOLE = DigestKeys.section("console");
    public static final long CPU = DigestKeys.section("cpu");
    public static final long PPU = DigestKeys.section("ppu");
    public static final long APU = DigestKeys.section("apu");
    public static final long DMA = DigestKeys.section("dma");
    public static final long CONTROLLERS = DigestKeys.section("controllers");
    public static final long MAPPER = DigestKeys.section("mapper");
    /** The cheats' section, described only while a cheat is in effect. */
    public static final long CHEATS = DigestKeys.section("cheats");

    private ConsoleSections() {
    }
}
