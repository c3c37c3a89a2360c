package lockstep.nes.core.cart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.UserDirs;
import lockstep.nes.state.Memory;

/**
 * Battery-backed PRG-RAM kept in {@code <rom>.sav}: loaded before the game starts, saved when
 * the command ends (never from inside the engine, which does no I/O).
 *
 * <p>The save lives beside the ROM when that folder is writable, otherwise in the user's data
 * folder ({@code $XDG_DATA_HOME/lockstep-nes/saves}, default
 * {@code ~/.local/share/lockstep-nes/saves}) as {@code <rom file name>-<CRC32 of the ROM>.sav},
 * so two ROMs with the same file name cannot overwrite each other's save. Loading looks where
 * saving would write first, then the other place. Writes are atomic: a temporary file in the
 * same folder, flushed to disk, then renamed over the old save; a failed write beside the ROM
 * falls back to the data folder, so a save is never silently lost.
 */
public final class BatterySave {
    private final Path rom;
    private final Path beside;
    private final Path fallback;
    private final boolean romFolderWritable;

    /** A save for {@code rom} of {@code cart}, with the default data folder. */
    public BatterySave(Path rom, Cartridge cart) {
        this(rom, cart, defaultDataDir());
    }

    /** A save for {@code rom} of {@code cart} whose fallback folder is {@code dataDir}. */
    public BatterySave(Path rom, Cartridge cart, Path dataDir) {
        this(rom, cart, dataDir, canWriteIn(folderOf(rom)));
    }

    /**
     * As above, with the writability of the ROM's folder decided by the caller (a frontend that
     * already probed it, or a test running as root, for whom no folder is read-only).
     */
    public BatterySave(Path rom, Cartridge cart, Path dataDir, boolean romFolderWritable) {
        this(rom, rom.resolveSibling(rom.getFileName() + ".sav"),
                dataDir.resolve(rom.getFileName() + "-" + cart.romCrc32() + ".sav"), romFolderWritable);
    }

    private BatterySave(Path rom, Path beside, Path fallback, boolean romFolderWritable) {
        this.rom = rom;
        this.beside = beside;
        this.fallback = fallback;
        this.romFolderWritable = romFolderWritable;
    }

    /** A save kept in {@code file} alone (a path the user gave): loaded from it and written to it. */
    public static BatterySave inFile(Path rom, Path file) {
        return new BatterySave(rom, file, file, true);
    }

    /** $XDG_DATA_HOME/lockstep-nes/saves, or ~/.local/share/lockstep-nes/saves. */
    public static Path defaultDataDir() {
        return UserDirs.data().resolve("saves");
    }

    /** Where {@link #save} writes. */
    public Path target() {
        return romFolderWritable ? beside : fallback;
    }

    /**
     * Loads the save into the mapper's battery RAM. Returns the file it came from, or null when
     * the board has no battery or there is no save yet. A save of another size fills what fits.
     */
    public Path load(Mapper mapper) throws IOException {
        Memory ram = mapper.batteryRam();
        if (ram == null) {
            return null;
        }
        Path from = Files.isRegularFile(target()) ? target()
                : Files.isRegularFile(romFolderWritable ? fallback : beside) ? (romFolderWritable ? fallback : beside)
                : null;
        if (from == null) {
            return null;
        }
        byte[] data;
        try {
            data = Files.readAllBytes(from);
        } catch (IOException e) {
            throw new IOException(from + ": cannot read save (" + e.getMessage() + ")", e);
        }
        System.arraycopy(data, 0, ram.array(), 0, Math.min(data.length, ram.size()));
        ram.rehash();
        return from;
    }

    /**
     * Writes the mapper's battery RAM atomically. Returns the file written, or null when the
     * board has no battery.
     */
    public Path save(Mapper mapper) throws IOException {
        Memory ram = mapper.batteryRam();
        if (ram == null) {
            return null;
        }
        byte[] data = ram.array().clone();
        if (romFolderWritable) {
            try {
                AtomicFile.write(beside, data);
                return beside;
            } catch (IOException e) {
                // fall through to the data folder
            }
        }
        try {
            Files.createDirectories(fallback.getParent());
            AtomicFile.write(fallback, data);
        } catch (IOException e) {
            throw new IOException(fallback + ": cannot write save for " + rom + " (" + e.getMessage() + ")", e);
        }
        return fallback;
    }

    private static Path folderOf(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        return parent != null ? parent : file.toAbsolutePath().getRoot();
    }

    /** True when a file can really be created in {@code dir} (permissions alone can mislead). */
    public static boolean canWriteIn(Path dir) {
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            return false;
        }
        try {
            Path probe = Files.createTempFile(dir, ".lockstep-probe", ".tmp");
            Files.delete(probe);
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
