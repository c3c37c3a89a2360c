package lockstep.nes.core.nsf;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.ppu.Region;

/**
 * Plays an NSF's songs: a console on the file's {@link NsfBoard}, whose player program inits the
 * song and calls play at the file's rate. The console is an ordinary engine (its APU mixes the
 * expansion chips; its state is described, snapshotted and digested like a cartridge's).
 */
public final class NsfPlayer {
    private NsfPlayer() {
    }

    /**
     * The console that plays song {@code song} (0-based) of {@code file} from power-on, on
     * {@code region}'s console (null: the file's own, PAL only for a PAL-only file).
     */
    public static Console console(NsfFile file, int song, Region region) {
        if (song < 0 || song >= file.songs()) {
            throw new IllegalArgumentException("song " + song + " of " + file.songs());
        }
        final Region r = region != null ? region : regionOf(file);
        final Cartridge cart = new Cartridge(file.fileName(), NsfBoard.prg(file), new byte[0], 0, Mirroring.VERTICAL,
                false, 8192, 8192).withRegion(r == Region.PAL ? Region.PAL : Region.NTSC);
        return Console.create(cart, new NsfBoard(cart, file, song));
    }

    /** The console a file asks for: PAL for a PAL-only file, else NTSC. */
    public static Region regionOf(NsfFile file) {
        return file.pal() && !file.dual() ? Region.PAL : Region.NTSC;
    }
}
