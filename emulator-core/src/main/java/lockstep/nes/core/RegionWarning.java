package lockstep.nes.core;

import lockstep.nes.core.cart.Cartridge;

/**
 * NTSC, PAL and Dendy consoles are emulated (their timing comes from the header or
 * {@code --region}), but not the Vs. System or the PlayChoice-10 (header byte 7 bits 0-1): such a
 * ROM runs as a home console, so the frontends say so once rather than run it with no word.
 */
public final class RegionWarning {
    private RegionWarning() {
    }

    /** The warning line for {@code cart} (naming {@code rom}), or null when it is a home console's ROM. */
    public static String of(Cartridge cart, String rom) {
        String console = switch (cart.consoleType()) {
            case VS_SYSTEM -> "Vs. System";
            case PLAYCHOICE_10 -> "PlayChoice-10";
            default -> null;
        };
        if (console == null) {
            return null;
        }
        return "warning: " + rom + ": a " + console + " ROM (from its header); only the home consoles are emulated,"
                + " so it runs as a " + cart.region().displayName() + " NES";
    }
}
