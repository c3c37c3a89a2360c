package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.stream.Stream;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A console that does not draw its picture ({@link Console#drawPicture}) goes through the same
 * states as one that does: the same digest after every frame, on the fast path's whole tiles,
 * part tiles and backdrop runs and on the dot path (mid-line register writes, greyscale and
 * emphasis). Its picture is left alone while it does not draw, and drawn again in full once it
 * does.
 */
class PictureOffTest {

    static Stream<String> roms() {
        return Stream.of("other/snow.nes", "spritecans-2011/spritecans.nes",
                "other/BladeBuster.nes", "sprite_hit_tests_2005.10.05/09.timing_basics.nes",
                "ppu_vbl_nmi/rom_singles/04-nmi_control.nes", "tutor/tutor.nes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void sameStatesWithoutThePicture(String rom) throws Exception {
        final Cartridge cart = Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom)));
        final Console drawn = Console.create(cart);
        final Console undrawn = Console.create(cart);
        undrawn.drawPicture(false);
        final CycleDigest dd = new CycleDigest(drawn);
        final CycleDigest du = new CycleDigest(undrawn);
        final short[] blank = new short[undrawn.ppu().frame().length];
        boolean pictured = false;
        for (int f = 0; f < 300; f++) {
            drawn.runFrame();
            undrawn.runFrame();
            final int frame = f;
            assertEquals(dd.digest(), du.digest(), () -> rom + ": frame " + frame + " differs without the picture");
            pictured |= moreThanOneColour(drawn.ppu().frame());
        }
        assertEquals(drawn.cycles(), undrawn.cycles());
        assertArrayEquals(blank, undrawn.ppu().frame(), rom + ": a console that does not draw left its picture alone");
        assertTrue(pictured, rom + ": the drawing console drew a picture of more than one colour");

        // Drawn again from the next frame's start: a whole frame later the pictures agree.
        undrawn.drawPicture(true);
        assertTrue(undrawn.ppu().drawsPicture());
        drawn.runFrame();
        undrawn.runFrame();
        assertArrayEquals(drawn.ppu().frame(), undrawn.ppu().frame(), rom + ": the picture once drawn again");
        assertEquals(dd.digest(), du.digest());
    }

    private static boolean moreThanOneColour(short[] picture) {
        for (short p : picture) {
            if (p != picture[0]) {
                return true;
            }
        }
        return false;
    }
}
