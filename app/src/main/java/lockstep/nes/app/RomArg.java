package lockstep.nes.app;

import java.nio.file.Path;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.demo.DemoRom;

/**
 * Loads the ROM a command was given, or the project's own demo ROM when none was or when it
 * was named {@code builtin:demo}.
 */
final class RomArg {
    private RomArg() {
    }

    /** True when {@code rom} means the built-in demo ROM: none given, or {@code builtin:demo}. */
    static boolean isDemo(Path rom) {
        return rom == null || rom.toString().equals(DemoRom.BUILTIN);
    }

    static Cartridge load(Path rom) throws RomFormatException {
        return load(rom, null);
    }

    /** The ROM, taken from a .gz or .zip archive when it is one ({@code entry}: see {@link RomEntryOption}). */
    static Cartridge load(Path rom, String entry) throws RomFormatException {
        return load(rom, entry, null);
    }

    /**
     * The ROM, or a Famicom Disk System image run with its BIOS and side ({@code disk}: the
     * options, or null for the BIOS in the config folder and side 1A).
     */
    static Cartridge load(Path rom, String entry, DiskOptions disk) throws RomFormatException {
        RomFile.Image image = image(rom, entry);
        return load(image.name(), image.bytes(), disk);
    }

    /** The image {@code bytes} read from {@code name}, a disk image with {@code disk}'s BIOS and side. */
    static Cartridge load(String name, byte[] bytes, DiskOptions disk) throws RomFormatException {
        final RomFile.Image image = new RomFile.Image(name, bytes);
        final boolean sideGiven = disk != null && disk.side != null;
        final boolean biosGiven = disk != null && disk.bios != null;
        if (DiskImage.looksLikeDisk(image.bytes())) {
            return DiskSystem.load(image.name(), image.bytes(), biosGiven ? disk.bios : null, sideGiven ? disk.side : null);
        }
        if (sideGiven || biosGiven) {
            throw new RomFormatException(image.name() + ": " + (sideGiven ? "--disk-side" : "--fds-bios")
                    + " is for a Famicom Disk System image (.fds, .qd), and this is a cartridge");
        }
        return Cartridge.parse(image.name(), image.bytes());
    }

    /** The ROM image's bytes (unpacked from an archive) and its name. */
    static RomFile.Image image(Path rom, String entry) throws RomFormatException {
        if (isDemo(rom)) {
            if (entry != null) {
                throw new RomFormatException(DemoRom.BUILTIN + ": --entry is for a ROM inside a .zip archive");
            }
            return new RomFile.Image(DemoRom.NAME, DemoRom.bytes());
        }
        return RomFile.read(rom, entry);
    }

    static String name(Path rom) {
        return isDemo(rom) ? DemoRom.NAME + " (built in)" : rom.toString();
    }
}
