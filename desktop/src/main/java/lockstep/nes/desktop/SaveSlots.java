package lockstep.nes.desktop;

import java.io.IOException;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.cart.Cartridge;

/**
 * Save-state slots 1-9, kept next to the battery save: {@code <rom>.ss1} ... beside the ROM
 * when that folder is writable, otherwise {@code <rom file name>-<CRC32>.ss1} in the saves
 * folder ({@link BatterySave} decides, so a game's states and battery RAM always sit together).
 * The built-in demo ROM has no file: its slots live in the saves folder.
 */
public final class SaveSlots {
    public static final int COUNT = 9;
    /** The battery save's path; slot n replaces its ".sav" with ".ss" + n. */
    private final Path battery;

    private SaveSlots(Path battery) {
        this.battery = battery;
    }

    /** Slots for {@code rom} (null for the built-in demo ROM), probing the ROM folder. */
    public static SaveSlots of(Path rom, Cartridge cart, Path savesDir) {
        if (rom == null) {
            return new SaveSlots(savesDir.resolve(cart.name() + "-" + cart.romCrc32() + ".sav"));
        }
        return new SaveSlots(new BatterySave(rom, cart, savesDir).target());
    }

    /** As {@link #of(Path, Cartridge, Path)} with the ROM folder's writability given. */
    public static SaveSlots of(Path rom, Cartridge cart, Path savesDir, boolean romFolderWritable) {
        return new SaveSlots(new BatterySave(rom, cart, savesDir, romFolderWritable).target());
    }

    /** The file of slot {@code n} (1-9). */
    public Path slot(int n) {
        if (n < 1 || n > COUNT) {
            throw new IllegalArgumentException("slot " + n + " (1-" + COUNT + ")");
        }
        String name = battery.getFileName().toString();
        String stem = name.endsWith(".sav") ? name.substring(0, name.length() - 4) : name;
        return battery.resolveSibling(stem + ".ss" + n);
    }

    /** Writes {@code data} to slot {@code n} atomically (temporary file in the folder, then rename). */
    public Path write(int n, byte[] data) throws IOException {
        Path file = slot(n).toAbsolutePath();
        AtomicFile.writeCreatingFolder(file, data);
        return file;
    }
}
