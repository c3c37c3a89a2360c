package lockstep.nes.app;

import java.nio.file.Path;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;

/** Loads the ROM a command was given, or the project's own demo ROM when none was. */
final class RomArg {
    private RomArg() {
    }

    static Cartridge load(Path rom) throws RomFormatException {
        if (rom == null) {
            return Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        }
        return Cartridge.load(rom);
    }

    static String name(Path rom) {
        return rom == null ? DemoRom.NAME + " (built in)" : rom.toString();
    }
}
