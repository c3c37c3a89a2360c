package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class HelpAndMessagesTest {
    @Test
    void theKeyListNamesEachKeyAndWhatItDoesInTwoReadableColumns() {
        KeyConfig keys = KeyConfig.parse("{}", "keys.json").config();
        List<String> lines = KeyList.lines(keys, Path.of("/home/u/.config/lockstep/keys.json"));
        String all = String.join("\n", lines);
        assertTrue(all.contains("F5        save the state in the slot"), all);
        assertTrue(all.contains("F4        the debugger"), all);
        assertTrue(all.contains("1-9       choose the state slot"), all);
        assertTrue(all.contains("ALT+ENTER full screen on / off"), all);
        assertTrue(all.contains("X         player 1 A"), all);
        assertTrue(!all.contains("SLOT_"), "the nine slot keys are one entry: " + all);
        for (String l : lines) {
            assertTrue(l.length() <= 72, "fits a 3x window's overlay: " + l);
        }
        assertTrue(lines.size() <= 26, "fits the picture's height: " + lines.size() + " lines");
        assertEquals("key file: /home/u/.config/lockstep/keys.json", lines.get(lines.size() - 1));
    }

    @Test
    void messagesFadeOverTheirLastSecondInsteadOfCoveringThePicture() {
        Osd osd = new Osd();
        assertEquals(0, osd.opacity());
        osd.post("saved");
        assertEquals(256, osd.opacity());
        for (int i = 0; i < Osd.LIFETIME - Osd.FADE; i++) {
            osd.tick();
        }
        assertEquals(256, osd.opacity());
        for (int i = 0; i < Osd.FADE / 2; i++) {
            osd.tick();
        }
        assertEquals(128, osd.opacity());
        Canvas c = new Canvas(100, 20);
        c.panel(0, 0, List.of("saved"), 0xFFFFFFFF, osd.opacity());
        assertEquals(0x58, c.pixels[0] >>> 24, "the box at half its 0xB0 alpha");
        for (int i = 0; i < Osd.FADE / 2; i++) {
            osd.tick();
        }
        assertEquals(List.of(), osd.lines());
        assertEquals(0, osd.opacity());
    }
}
