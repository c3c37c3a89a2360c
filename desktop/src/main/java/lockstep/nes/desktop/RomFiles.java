package lockstep.nes.desktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.nsf.NsfFile;
import lockstep.nes.core.nsf.NsfFormatException;

/**
 * The files the window opens: why the one given on the command line would not open, a ROM or a
 * disk image loaded (with the BIOS and, for the one given on the command line, the side chosen),
 * and the last ROM played ({@code last-rom.txt} in the config folder).
 */
final class RomFiles {
    private final DesktopApp.Options o;

    RomFiles(DesktopApp.Options o) {
        this.o = o;
    }

    /** Why the ROM given on the command line does not open, or null when it does (or none was given). */
    String error() {
        if (o.rom == null || o.rom.toString().equals(DemoRom.BUILTIN)) {
            return null;
        }
        try {
            RomFile.Image image = RomFile.read(o.rom, o.entry);
            if (NsfFile.looksLike(image.bytes())) {
                NsfFile.parse(image.name(), image.bytes());
                return null;
            }
            Cartridge.load(o.rom, o.entry).createMapper();
            return null;
        } catch (RomFormatException | NsfFormatException e) {
            return e.getMessage();
        }
    }

    /** A ROM, or a disk image with the BIOS and (for the one given on the command line) the side chosen. */
    Cartridge load(Path rom, String entry) throws RomFormatException {
        RomFile.Image image = RomFile.read(rom, entry);
        if (DiskImage.looksLikeDisk(image.bytes())) {
            return DiskSystem.load(image.name(), image.bytes(), o.fdsBios, rom.equals(o.rom) ? o.diskSide : null);
        }
        return Cartridge.parse(image.name(), image.bytes());
    }

    private Path lastRomFile() {
        return o.dirs.config().resolve("last-rom.txt");
    }

    /** The last ROM played, or null (none, or it is gone). */
    Path last() {
        try {
            Path f = lastRomFile();
            if (Files.isRegularFile(f)) {
                Path p = Path.of(Files.readString(f, StandardCharsets.UTF_8).trim());
                return Files.isRegularFile(p) ? p : null;
            }
        } catch (IOException | RuntimeException e) {
            // no usable memory of the last ROM: start with the demo
        }
        return null;
    }

    /** Remembers {@code rom} as the last ROM played. */
    void remember(Path rom) {
        try {
            Files.createDirectories(o.dirs.config());
            AtomicFile.write(lastRomFile(), (rom.toAbsolutePath() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // remembering the ROM is a convenience; playing it is what matters
        }
    }
}
