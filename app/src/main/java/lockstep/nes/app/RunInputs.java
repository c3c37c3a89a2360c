package lockstep.nes.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.Console;
import lockstep.nes.core.RegionWarning;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieException;
import lockstep.nes.core.movie.MovieStart;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;

/**
 * What a command runs a console from: the ROM (or the built-in demo) in the region asked for, a
 * movie, a saved state. Each failure is one {@link BadInput} line naming the file.
 */
final class RunInputs {
    private RunInputs() {
    }

    /**
     * The cartridge of {@code rom} ({@code entry} in an archive; null: the demo ROM), in the
     * region {@code movie} was recorded in (when given) unless {@code region} names one; a
     * region that looks wrong for the ROM's name is warned of on stderr.
     */
    static Cartridge cartridge(Path rom, String entry, Movie movie, RegionOption region) throws BadInput {
        return cartridge(rom, entry, null, movie, region);
    }

    /** As above, a disk image run with the BIOS and side {@code disk} names (null: the defaults). */
    static Cartridge cartridge(Path rom, String entry, DiskOptions disk, Movie movie, RegionOption region)
            throws BadInput {
        Cartridge cart;
        try {
            cart = RomArg.load(rom, entry, disk);
        } catch (RomFormatException e) {
            throw new BadInput(rom == null ? "demo ROM: " + e.getMessage() : e.getMessage());
        }
        if (movie != null) {
            cart = cart.withRegion(movie.region(cart.region()));
        }
        cart = region.apply(cart);
        if (rom != null && RegionWarning.of(cart, rom.toString()) != null) {
            System.err.println(RegionWarning.of(cart, rom.toString()));
        }
        return cart;
    }

    /** A console with {@code cart} inserted, powered on. */
    static Console console(Cartridge cart) throws BadInput {
        try {
            return Console.create(cart);
        } catch (RomFormatException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** The FCEUX movie in {@code file}. */
    static Movie movie(Path file) throws BadInput {
        try {
            return Fm2.read(file);
        } catch (MovieException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /**
     * Starts {@code movie} (read from {@code file}) on {@code console} when it begins from its own
     * save state, which a state loaded with {@code --load-state} ({@code loadState}) would contradict.
     */
    static void startFromState(Movie movie, Path file, Console console, Path loadState) throws BadInput {
        if (!MovieStart.fromState(movie)) {
            return;
        }
        if (loadState != null) {
            throw new BadInput(file + ": the movie starts from its own save state: give it without --load-state");
        }
        try {
            MovieStart.begin(movie, console, file.toString());
        } catch (MovieException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** Loads the snapshot in {@code file} into {@code snapshots}' console. */
    static void loadState(Snapshots snapshots, Path file) throws BadInput {
        byte[] data = read(file, "state");
        try {
            snapshots.load(data, data.length, file.toString());
        } catch (SnapshotException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** The bytes of {@code file}, {@code what} naming them in the error. */
    static byte[] read(Path file, String what) throws BadInput {
        if (!Files.isRegularFile(file)) {
            throw new BadInput(file + ": " + (Files.exists(file) ? "not a file" : "not found"));
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadInput(file + ": cannot read " + what + " (" + lockstep.nes.core.IoReason.of(e) + ")");
        }
    }
}
