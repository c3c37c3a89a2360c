package lockstep.nes.desktop;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the overlay's text goes and how it is cut into lines: messages are wrapped where a
 * sentence allows (after "; ", ": ", ", ", else at a space) and placed where they hide the least
 * of the game: in the margin below or above the picture when the window has one, else at the
 * picture's top, under the panels already there, not over the bottom rows where games keep
 * their status bars.
 */
final class OverlayLayout {
    /** Clause ends, strongest first: a line is cut after one of these when it can be. */
    private static final String[] CLAUSE_ENDS = {"; ", ": ", ", ", " - "};
    private static final int GAP = 4;

    private OverlayLayout() {
    }

    /** Lines cut into pieces of at most {@code width} characters, at clause ends when they fall past half the width. */
    static List<String> wrap(List<String> lines, int width) {
        List<String> out = new ArrayList<>();
        int w = Math.max(8, width);
        for (String l : lines) {
            String rest = l;
            while (rest.length() > w) {
                int cut = cut(rest, w);
                out.add(rest.substring(0, cut).stripTrailing());
                rest = rest.substring(cut).stripLeading();
            }
            out.add(rest);
        }
        return out;
    }

    /** Where to end the first line of {@code s} (longer than {@code w}). */
    private static int cut(String s, int w) {
        for (String end : CLAUSE_ENDS) {
            // The clause's punctuation stays on the line; the space after it may fall past w.
            int at = s.lastIndexOf(end, w - 1);
            if (at >= 0 && at + end.stripTrailing().length() >= w / 2) {
                return at + end.stripTrailing().length();
            }
        }
        int space = s.lastIndexOf(' ', w);
        return space >= w / 2 ? space : w;
    }

    /**
     * The top of the message panel ({@code panelH} high) on a canvas {@code canvasH} high whose
     * picture covers rows {@code pictureTop} to {@code pictureBottom} (exclusive), with the top
     * panels (lockstep report, help) ending at {@code topUsed}.
     */
    static int messagesTop(int canvasH, int pictureTop, int pictureBottom, int panelH, int topUsed) {
        if (canvasH - pictureBottom >= panelH + GAP) {
            return canvasH - GAP / 2 - panelH; // in the margin below the picture
        }
        if (pictureTop >= panelH + GAP) {
            return pictureTop - GAP / 2 - panelH; // in the margin above it
        }
        return Math.max(topUsed, Math.max(GAP, pictureTop + GAP));
    }
}
