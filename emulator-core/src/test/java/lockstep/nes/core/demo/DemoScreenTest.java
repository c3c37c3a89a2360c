package lockstep.nes.core.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.input.Controllers;
import org.junit.jupiter.api.Test;

/**
 * Checks what the demo writes into the nametable and palette (followed at the CPU's PPU
 * register writes), and leaves a preview picture at target/demo-preview.png.
 */
class DemoScreenTest {
    @Test
    void drawsTheTitleBorderAndText() throws Exception {
        byte[] rom = DemoRom.bytes();
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, rom));
        VramRecorder v = new VramRecorder();
        for (int f = 0; f < 60; f++) {
            v.runFrame(c);
        }
        // Border all around, dotted field inside.
        for (int col = 0; col < 32; col++) {
            assertEquals(DemoTiles.BORDER, v.tile(col, 0));
            assertEquals(DemoTiles.BORDER, v.tile(col, 29));
        }
        for (int row = 0; row < 30; row++) {
            assertEquals(DemoTiles.BORDER, v.tile(0, row));
            assertEquals(DemoTiles.BORDER, v.tile(31, row));
        }
        assertEquals(DemoTiles.FIELD, v.tile(15, 15));
        // The title: "LOCKSTEP NES" in double-size letters at row 4, column 4, palette 1.
        String title = "LOCKSTEP NES";
        for (int i = 0; i < title.length(); i++) {
            char ch = title.charAt(i);
            int base = ch == ' ' ? 0 : DemoTiles.BIG + 4 * (ch - 'A');
            int step = ch == ' ' ? 0 : 1;
            assertEquals(base, v.tile(4 + 2 * i, 4), "title top-left of " + ch);
            assertEquals(base + step, v.tile(5 + 2 * i, 4));
            assertEquals(base + 2 * step, v.tile(4 + 2 * i, 5));
            assertEquals(base + 3 * step, v.tile(5 + 2 * i, 5));
            assertEquals(1, v.attribute(4 + 2 * i, 4));
        }
        assertText(v, 5, 7, "CYCLE ACCURATE EMULATOR");
        assertEquals(2, v.attribute(5, 7));
        assertEquals(0, v.attribute(0, 5), "the border keeps palette 0");
        assertEquals(0x0F, v.palette(0));
        // The frame counter: the NMI writes the count it started with, then increments it.
        int shown = (c.peek(DemoRom.symbol("frame_hi")) << 8 | c.peek(DemoRom.symbol("frame"))) - 1;
        assertText(v, 11, 26, String.format("FRAME %04X", shown));

        Preview.png(Preview.render(v, Preview.ramOam(c), DemoTiles.chr()), 2, Path.of("target", "demo-preview.png"));
        c.setButtons(0, Controllers.RIGHT | Controllers.UP);
        for (int f = 0; f < 30; f++) {
            v.runFrame(c);
        }
        c.setButtons(0, Controllers.B);
        v.runFrame(c);
        v.runFrame(c);
        Preview.png(Preview.render(v, Preview.ramOam(c), DemoTiles.chr()), 2, Path.of("target", "demo-preview-2.png"));
    }

    /**
     * The PPU's picture equals the simple model's picture of the same nametable, palette and
     * OAM, frame after frame while the sprites move: the demo shows what it means to show.
     */
    @Test
    void thePpuShowsTheModelPicture() throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        VramRecorder v = new VramRecorder();
        byte[] chr = DemoTiles.chr();
        for (int f = 1; f <= 150; f++) {
            c.setButtons(0, f < 100 ? Controllers.LEFT | Controllers.DOWN
                    : f < 120 ? Controllers.A | Controllers.UP | Controllers.RIGHT : Controllers.B);
            v.runFrame(c);
            if (f >= 10 && f % 10 == 0) {
                int[] expected = Preview.render(v, Preview.ppuOam(c), chr);
                int[] actual = Preview.ppuFrame(c);
                if (f == 50 || f == 150) {
                    Preview.png(actual, 2, Path.of("target", "demo-frame-" + f + ".png"));
                }
                for (int i = 0; i < expected.length; i++) {
                    if (expected[i] != actual[i]) {
                        Preview.png(actual, 2, Path.of("target", "demo-frame-mismatch.png"));
                        Preview.png(expected, 2, Path.of("target", "demo-model-mismatch.png"));
                        assertEquals(expected[i], actual[i], "frame " + f + " pixel (" + (i % 256)
                                + ", " + (i / 256) + "); pictures in target/demo-*-mismatch.png");
                    }
                }
            }
        }
    }

    private static void assertText(VramRecorder v, int col, int row, String text) {
        for (int i = 0; i < text.length(); i++) {
            assertEquals(text.charAt(i), v.tile(col + i, row), "text at " + (col + i) + "," + row);
        }
    }
}
