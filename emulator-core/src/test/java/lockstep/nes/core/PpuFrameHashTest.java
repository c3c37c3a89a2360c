package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Frame hashes (FrameImage.hash of the 9-bit frame) of ROMs whose result is only visible.
 * Each hash was recorded after a person looked at the PNG of that frame and found it right:
 * scanline shows no error stars; nmi_sync's middle line starts at x=80/81 like the reference
 * lines; full_palette shows all 64 colours in the 8 emphasis rows; tvpassfail's crosstalk
 * screen shows the dither an RGB PPU gives (its "PASS" needs an NTSC composite filter);
 * the demos show their intended pictures. On a mismatch the frame is written as PNG under
 * target/frame-hash/ for a person to look at.
 */
class PpuFrameHashTest {

    @ParameterizedTest(name = "{0} frame {1}")
    @CsvSource({
        "scanline/scanline.nes,                 120, 0,  08e27fb8068386e5",
        "nmi_sync/demo_ntsc.nes,                120, 0,  b05bc554f305f64a",
        "full_palette/full_palette.nes,         120, 0,  c53728e0cd31a2c6",
        "tvpassfail/tv.nes,                     120, 60, b451e41bb404aa32",
        "spritecans-2011/spritecans.nes,        600, 0,  c8551861e16421d0",
        "nes15-1.0.0/nes15-NTSC.nes,            600, 0,  4e5fa31fce6d4cab",
        "tutor/tutor.nes,                       600, 0,  988f4d36c64d226d",
        "other/SimpleParallaxDemo.nes,          600, 0,  53e8b91eaa962b42",
        "other/Sayoonara!.NES,                  600, 0,  7fd0dc668a6dd4f3", // rendering toggled mid-line: stale background shifters
        "other/nescafe.nes,                     600, 0,  456040617e330e36",
        "other/FLAME.NES,                       600, 0,  ead764775f39501a",
        "other/MOTION.NES,                      600, 0,  bed1c0b534d60365",
        "other/RasterChromaLuma.NES,            300, 0,  1010d685fddde1c7",
    })
    void frameHash(String rom, int frames, int startAt, String expected) throws Exception {
        Console c = RomHarness.console(rom);
        for (int f = 0; f < frames; f++) {
            // startAt > 0: hold Start for 6 frames from that frame.
            c.setButtons(0, startAt > 0 && f >= startAt && f < startAt + 6 ? 0x08 : 0);
            c.runFrame();
        }
        String actual = FrameImage.hash(c.ppu().frame());
        if (!expected.equals(actual)) {
            Path dir = Path.of("target", "frame-hash");
            Files.createDirectories(dir);
            Path png = dir.resolve(rom.replace('/', '_') + "-" + frames + ".png");
            Files.write(png, FrameImage.png(c.ppu().frame(), Palette.ntsc()));
            assertEquals(expected, actual, rom + " frame " + frames + " differs; see " + png.toAbsolutePath());
        }
    }
}
