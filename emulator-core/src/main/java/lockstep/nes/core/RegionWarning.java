package lockstep.nes.core;

import lockstep.nes.core.cart.Cartridge;

/**
 * Only NTSC timing is emulated (CPU clock, 262 scanlines, APU rates): a ROM whose header says
 * PAL (NES 2.0 byte 12, iNES byte 9 bit 0), Dendy, or a Vs. System / PlayChoice-10 console
 * (byte 7 bits 0-1) runs as an NTSC NES, so the frontends say so once rather than run it with no
 * word. A multi-region ROM runs as NTSC by design and gets no warning.
 */
public final class RegionWarning {
    private RegionWarning() {
    }

    /** The warning line for {@code cart} (naming {@code rom}), or null when it is an NTSC NES ROM. */
    public static String of(Cartridge cart, String rom) {
        String region = switch (cart.timing()) {
            case PAL -> "PAL";
            case DENDY -> "Dendy";
            default -> null;
        };
        String console = switch (cart.consoleType()) {
            case VS_SYSTEM -> "Vs. System";
            case PLAYCHOICE_10 -> "PlayChoice-10";
            default -> null;
        };
        if (region == null && console == null) {
            return null;
        }
        String what = region != null && console != null ? region + " " + console
                : region != null ? region : console;
        return "warning: " + rom + ": a " + what + " ROM (from its header); only the NTSC NES is emulated,"
                + " so it runs as NTSC";
    }
}
