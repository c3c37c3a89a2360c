package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.demo.Ines;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.ppu.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a console's region comes from (the NES 2.0 timing field, the iNES flags, the user, a
 * movie) and the console it makes: a frame of the region's length in CPU cycles.
 */
class RegionTest {
    private static byte[] image() {
        return Ines.nrom(new byte[0x8000], new byte[0x2000], true);
    }

    private static Cartridge parse(byte[] image) throws Exception {
        return Cartridge.parse("r.nes", image);
    }

    @Test
    void theNes2TimingFieldNamesTheRegion() throws Exception {
        byte[] b = image();
        b[7] = (byte) ((b[7] & 0xF3) | 0x08); // NES 2.0
        Region[] byField = {Region.NTSC, Region.PAL, Region.NTSC, Region.DENDY}; // 2: multi-region, runs as NTSC
        for (int t = 0; t < 4; t++) {
            b[12] = (byte) t;
            assertEquals(byField[t], parse(b).region(), "timing " + t);
        }
    }

    @Test
    void theInesFlagsSayPal() throws Exception {
        byte[] b = image();
        assertEquals(Region.NTSC, parse(b).region());
        b[9] = 1;
        assertEquals(Region.PAL, parse(b).region());
        b[9] = 0;
        b[10] = 2;
        assertEquals(Region.PAL, parse(b).region(), "byte 10 bits 0-1 = 2");
        b[10] = 3;
        assertEquals(Region.NTSC, parse(b).region(), "byte 10 bits 0-1 = 3: both");
        b[9] = 1;
        b[12] = 'D'; // junk in bytes 12-15 ("DiskDude!"): the flags are not trusted
        assertEquals(Region.NTSC, parse(b).region());
    }

    @Test
    void theUserOrAMovieChoosesTheConsole() throws Exception {
        Cartridge ntsc = parse(image());
        assertSame(ntsc, ntsc.withRegion(Region.NTSC));
        Cartridge dendy = ntsc.withRegion(Region.DENDY);
        assertEquals(Region.DENDY, dendy.region());
        assertEquals(Region.PAL, dendy.withRegion(Region.PAL).region());
        assertEquals(Region.DENDY, Console.create(dendy).region());

        Movie pal = Fm2.parse("version 3\npalFlag 1\n|0|........|........||\n", "m.fm2");
        Movie sixty = Fm2.parse("version 3\npalFlag 0\n|0|........|........||\n", "m.fm2");
        Movie silent = Fm2.parse("version 3\n|0|........|........||\n", "m.fm2");
        assertEquals(Region.PAL, pal.region(Region.NTSC));
        assertEquals(Region.NTSC, sixty.region(Region.PAL));
        assertEquals(Region.DENDY, sixty.region(Region.DENDY));
        assertEquals(Region.DENDY, silent.region(Region.DENDY));
    }

    @Test
    void onlyVsSystemAndPlayChoiceRomsAreWarnedAbout() throws Exception {
        byte[] b = image();
        b[9] = 1;
        assertNull(RegionWarning.of(parse(b), "pal.nes"), "a PAL ROM runs as PAL");
        b[9] = 0;
        b[7] = (byte) ((b[7] & 0xFC) | 1);
        String w = RegionWarning.of(parse(b), "vs.nes");
        assertTrue(w != null && w.startsWith("warning: vs.nes: a Vs. System ROM"), w);
    }

    /**
     * Two frames of the demo ROM (rendering on) in CPU cycles: NTSC 2 x 29780.5 (a frame of
     * 89342 dots and one a dot short, 3 dots per cycle), PAL 2 x 33247.5 (106392 dots, 3.2 per
     * cycle), Dendy 2 x 35464 (106392 dots, 3 per cycle).
     */
    @ParameterizedTest
    @EnumSource(Region.class)
    void framesAreTheRegionsLengthInCpuCycles(Region region) throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()).withRegion(region));
        for (int i = 0; i < 60; i++) {
            c.runFrame();
        }
        assertTrue(c.ppu().renderingEnabled(), "the demo renders");
        long start = c.cycles();
        for (int i = 0; i < 10; i++) {
            c.runFrame();
        }
        long expected = switch (region) {
            case NTSC -> 297_805;
            case PAL -> 332_475;
            case DENDY -> 354_640;
        };
        assertTrue(Math.abs(c.cycles() - start - expected) <= 1, region + ": " + (c.cycles() - start));
    }
}
