package lockstep.nes.app;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.ppu.Region;
import picocli.CommandLine.Option;

/**
 * {@code --region ntsc|pal|dendy}, shared by every command that runs a ROM: the console to run it
 * on whatever its header says (most PAL ROMs are plain iNES files that cannot say).
 */
final class RegionOption {
    @Option(names = "--region", paramLabel = "ntsc|pal|dendy",
            description = "run the ROM on this console whatever its header says (default: the header's; NTSC when it says nothing)")
    String region;

    /** The region asked for, or null when the header decides. */
    Region get() throws BadInput {
        if (region == null) {
            return null;
        }
        Region r = Region.byId(region);
        if (r == null) {
            throw new BadInput("--region must be ntsc, pal or dendy, not '" + region + "'");
        }
        return r;
    }

    /** {@code cart} on the region asked for (unchanged without --region). */
    Cartridge apply(Cartridge cart) throws BadInput {
        Region r = get();
        return r == null ? cart : cart.withRegion(r);
    }
}
