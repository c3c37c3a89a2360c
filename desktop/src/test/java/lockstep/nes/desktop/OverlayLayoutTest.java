package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.ppu.Ppu;
import org.junit.jupiter.api.Test;

/** Messages are cut where their sentences allow and placed off the game's bottom rows. */
class OverlayLayoutTest {
    static final String DEMO_HINT = "the built-in demo ROM: F6 opens a ROM, or drop one on the window; F1 lists the keys";

    @Test
    void theDemoHintIsCutAtItsClausesAndEveryLineFits() {
        for (int width = 20; width <= 90; width++) {
            List<String> lines = OverlayLayout.wrap(List.of(DEMO_HINT), width);
            assertEquals(DEMO_HINT, String.join(" ", lines), "nothing lost at width " + width);
            for (String l : lines) {
                assertTrue(l.length() <= width, width + ": " + lines);
            }
            for (int i = 0; i + 1 < lines.size(); i++) {
                String end = lines.get(i);
                // A line ends at a clause or between words: never inside a word.
                assertTrue(end.endsWith(";") || end.endsWith(":") || end.endsWith(",") || !end.contains(" ")
                        || DEMO_HINT.contains(end + " "), width + ": " + lines);
            }
        }
        // At scale 3 (an 8:7 picture 878 pixels wide, canvas 439, 71 characters) it is two lines, cut at ';'.
        assertEquals(List.of("the built-in demo ROM: F6 opens a ROM, or drop one on the window;", "F1 lists the keys"),
                OverlayLayout.wrap(List.of(DEMO_HINT), 71));
    }

    @Test
    void messagesSitInTheMarginWhenThereIsOneElseAtThePicturesTopNeverOverItsBottomRows() {
        int panel = 2 * BitmapFont.CELL_H + 2;
        // A window exactly the picture's height (scale 3, canvas 2:1): no margin.
        int canvasH = Ppu.HEIGHT * 3 / 2;
        int top = OverlayLayout.messagesTop(canvasH, 0, canvasH, panel, 4);
        assertTrue(top + panel <= canvasH / 4, "over the picture's top quarter, not its bottom rows: " + top);
        // Below the lockstep report and the help when they are shown.
        assertEquals(100, OverlayLayout.messagesTop(canvasH, 0, canvasH, panel, 100));
        // A taller window: the margin below the picture holds it, clear of the picture.
        int y = OverlayLayout.messagesTop(500, 70, 430, panel, 4);
        assertTrue(y >= 430 && y + panel <= 500, "in the margin below: " + y);
        // A margin above only (a picture pushed down): above the picture.
        y = OverlayLayout.messagesTop(400, 40, 400, panel, 4);
        assertTrue(y >= 0 && y + panel <= 40, "in the margin above: " + y);
    }
}
