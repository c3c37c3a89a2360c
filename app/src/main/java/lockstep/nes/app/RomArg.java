package lockstep.nes.app;

import java.nio.file.Path;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
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
        if (isDemo(rom)) {
            return Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        }
        return Cartridge.load(rom);
    }

    static String name(Path rom) {
        return isDemo(rom) ? DemoRom.NAME + " (built in)" : rom.toString();
    }
}
