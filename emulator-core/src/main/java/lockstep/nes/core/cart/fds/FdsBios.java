package lockstep.nes.core.cart.fds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.UserDirs;
import lockstep.nes.core.cart.RomFormatException;

/**
 * The disk system's 8 KiB BIOS, which the user supplies (the project ships none): the file given
 * ({@code --fds-bios FILE}), else {@code disksys.rom} in the user's config folder
 * ({@code $XDG_CONFIG_HOME/lockstep}, default {@code ~/.config/lockstep}). When it is missing, one
 * line says where to put it.
 */
public final class FdsBios {
    private FdsBios() {
    }

    /** The BIOS's file name in the config folder. */
    public static final String FILE_NAME = "disksys.rom";
    /** Bytes of the BIOS ($E000-$FFFF). */
    public static final int SIZE = 0x2000;

    /** Where the BIOS is looked for when none is given: {@code disksys.rom} in the config folder. */
    public static Path defaultLocation() {
        return UserDirs.config(System.getenv(), System.getProperty("user.home")).resolve(FILE_NAME);
    }

    /**
     * The BIOS for the disk image {@code disk} (named in the messages): {@code given}, or (null) the
     * file at {@code fallback}.
     */
    public static byte[] load(String disk, Path given, Path fallback) throws RomFormatException {
        final Path p = given != null ? given : fallback;
        if (!Files.isRegularFile(p)) {
            if (given != null) {
                throw new RomFormatException(given + ": FDS BIOS not found");
            }
            throw new RomFormatException(disk + ": a Famicom Disk System image needs the BIOS: put your "
                    + FILE_NAME + " (8 KiB) at " + fallback + " or give --fds-bios FILE");
        }
        final byte[] bytes;
        try {
            if (Files.size(p) != SIZE) {
                throw new RomFormatException(p + ": not an FDS BIOS (" + Files.size(p) + " bytes, an FDS BIOS has "
                        + SIZE + ")");
            }
            bytes = Files.readAllBytes(p);
        } catch (IOException e) {
            throw new RomFormatException(p + ": cannot read the FDS BIOS (" + e.getMessage() + ")");
        }
        return bytes;
    }
}
