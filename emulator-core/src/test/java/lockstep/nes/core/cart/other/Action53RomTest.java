package lockstep.nes.core.cart.other;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import lockstep.nes.core.Console;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.ppu.FrameImage;
import org.junit.jupiter.api.Test;

/**
 * The Action 53 multicart "STREEMERZ: Action 53 Function 16 Volume One" (nes-test-roms
 * other/Streemerz_bundle.nes, 512 KiB): Start on the title shows the menu (tabs, a CHR-RAM
 * preview), Start again launches Streemerz, another game in its own outer bank. The hashes are of
 * pictures looked at when they were recorded: the title, the menu, the game's title screen.
 */
class Action53RomTest {
    private static final int START = 0x08;

    private static String frameAfter(Console c, int frames, int... startAt) {
        for (int f = 0; f < frames; f++) {
            int buttons = 0;
            for (int at : startAt) {
                if (f >= at && f < at + 5) {
                    buttons = START;
                }
            }
            c.setButtons(0, buttons);
            c.runFrame();
        }
        return FrameImage.hash(c.ppu().frame());
    }

    @Test
    void menuAndGameOfTheMulticart() throws IOException, RomFormatException {
        Cartridge cart = Cartridge.load(TestRoms.require("other/Streemerz_bundle.nes"));
        assertEquals(28, cart.mapperNumber());
        Console c = Console.create(cart);
        String title = frameAfter(c, 200);
        String menu = frameAfter(c, 200, 0);
        String game = frameAfter(c, 500, 20, 200);
        assertEquals(TITLE, title, "title");
        assertEquals(MENU, menu, "menu");
        assertEquals(GAME, game, "Streemerz title");
    }

    private static final String TITLE = "4ad7ed96823af05c";
    private static final String MENU = "f184e339b030e14d";
    private static final String GAME = "dcfc2291df99e852";
}
