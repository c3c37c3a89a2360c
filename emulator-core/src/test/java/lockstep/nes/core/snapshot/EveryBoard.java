package lockstep.nes.core.snapshot;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFormatException;

/**
 * A console for every mapper number that builds one, with CHR-ROM and with CHR-RAM (512 KiB of
 * PRG, 256 KiB of CHR-ROM or 8 KiB of CHR-RAM, 8 KiB of PRG-RAM): the boards the description
 * tests check.
 */
final class EveryBoard {
    private EveryBoard() {
    }

    static List<Console> consoles() {
        List<Console> out = new ArrayList<>();
        for (int number = 0; number < 256; number++) {
            for (boolean chrRam : new boolean[] {false, true}) {
                Cartridge cart = new Cartridge("mapper" + number + ".nes", new byte[512 * 1024],
                        chrRam ? new byte[0] : new byte[256 * 1024], number, Mirroring.HORIZONTAL, false, 8192,
                        chrRam ? 8192 : 0);
                try {
                    out.add(Console.create(cart));
                } catch (RomFormatException e) {
                    // an unsupported mapper number
                }
            }
        }
        return out;
    }
}
