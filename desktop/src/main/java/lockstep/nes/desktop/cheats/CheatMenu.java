package lockstep.nes.desktop.cheats;

import java.util.ArrayList;
import java.util.List;

/**
 * The cheat list on screen: while open it takes the keyboard. Typed letters, digits, ':' and '$'
 * make a code, Enter adds it, Up/Down pick an entry, Space puts it on or off, Backspace deletes a
 * letter, Escape closes. What it does to the list goes through {@link Target} (the session), which
 * puts the codes in effect and saves the list.
 */
public final class CheatMenu {
    /** What the menu acts on. */
    public interface Target {
        CheatList cheatList();

        /** Adds a code (on); returns the message. */
        String addCheat(String code);

        /** Puts entry {@code index} on or off; returns the message. */
        String setCheat(int index, boolean on);
    }

    /** The keys the menu answers besides typed text. */
    public enum Key { UP, DOWN, ENTER, BACKSPACE, ESCAPE }

    private static final int MAX_INPUT = 16;

    private boolean open;
    private final StringBuilder input = new StringBuilder();
    private int selected;

    public boolean isOpen() {
        return open;
    }

    public void open() {
        open = true;
        input.setLength(0);
    }

    public void close() {
        open = false;
    }

    public String input() {
        return input.toString();
    }

    public int selected() {
        return selected;
    }

    /** A typed character: part of a code, or Space to put the selected entry on or off. */
    public String typed(int codePoint, Target t) {
        if (!open) {
            return null;
        }
        if (codePoint == ' ') {
            final List<CheatList.Entry> es = t.cheatList().entries();
            if (es.isEmpty()) {
                return null;
            }
            selected = Math.min(selected, es.size() - 1);
            return t.setCheat(selected, !es.get(selected).on());
        }
        if (input.length() < MAX_INPUT && (Character.isLetterOrDigit(codePoint) && codePoint < 128
                || codePoint == ':' || codePoint == '$')) {
            input.append(Character.toUpperCase((char) codePoint));
        }
        return null;
    }

    /** One of the menu's keys; returns the message, if any. */
    public String key(Key k, Target t) {
        if (!open) {
            return null;
        }
        final int n = t.cheatList().entries().size();
        switch (k) {
            case UP -> selected = n == 0 ? 0 : (selected + n - 1) % n;
            case DOWN -> selected = n == 0 ? 0 : (selected + 1) % n;
            case BACKSPACE -> {
                if (input.length() > 0) {
                    input.setLength(input.length() - 1);
                }
            }
            case ESCAPE -> close();
            case ENTER -> {
                if (input.length() == 0) {
                    return null;
                }
                final int before = n;
                final String msg = t.addCheat(input.toString());
                if (t.cheatList().entries().size() > before) {
                    input.setLength(0);
                    selected = before;
                }
                return msg;
            }
        }
        return null;
    }

    /** The panel's lines: a heading, the entries (the selected one marked) and the code being typed. */
    public List<String> lines(CheatList list) {
        final List<String> out = new ArrayList<>();
        out.add("CHEATS  type a code, Enter adds  Up/Down Space on/off  Esc closes");
        final List<CheatList.Entry> es = list.entries();
        for (int i = 0; i < es.size(); i++) {
            out.add((i == selected ? "> " : "  ") + (es.get(i).on() ? "[on]  " : "[off] ") + es.get(i).cheat().code());
        }
        out.add("add: " + input + "_");
        return out;
    }
}
