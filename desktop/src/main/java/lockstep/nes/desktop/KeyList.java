package lockstep.nes.desktop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The F1 key list. */
final class KeyList {
    private KeyList() {
    }

    /**
     * The key list: one entry per key, "KEY  what it does", in two columns (the slots 1-9 as one
     * entry when they are on the digit keys), then Alt+Enter and where the key file is.
     */
    static List<String> lines(KeyConfig keys, Path keyFile) {
        List<String> entries = new ArrayList<>();
        boolean digits = true;
        for (int n = 1; n <= 9; n++) {
            digits &= Keys.name(keys.key(Action.valueOf("SLOT_" + n))).equals(String.valueOf(n));
        }
        for (Action a : Action.values()) {
            if (a.slot() > 0 && digits) {
                if (a.slot() == 1) {
                    entries.add(String.format(Locale.ROOT, "%-9s %s", "1-9", "choose the state slot"));
                }
                continue;
            }
            if (a == Action.PREVIOUS_TRACK || a == Action.SCALE_DOWN) {
                continue; // one entry with NEXT_TRACK, SCALE_UP
            }
            if (a == Action.SCALE_UP) {
                entries.add(String.format(Locale.ROOT, "%-9s %s", Keys.name(keys.key(a)) + "/"
                        + Keys.name(keys.key(Action.SCALE_DOWN)), "window larger / smaller"));
                continue;
            }
            if (a == Action.NEXT_TRACK) {
                entries.add(String.format(Locale.ROOT, "%-9s %s", Keys.name(keys.key(Action.PREVIOUS_TRACK)) + "/"
                        + Keys.name(keys.key(a)), "NSF track"));
                continue;
            }
            entries.add(String.format(Locale.ROOT, "%-9s %s", Keys.name(keys.key(a)), a.label()));
        }
        entries.add(String.format(Locale.ROOT, "%-9s %s", "ALT+ENTER", "full screen on / off"));
        int rows = (entries.size() + 1) / 2;
        int width = 0;
        for (int i = 0; i < rows; i++) {
            width = Math.max(width, entries.get(i).length());
        }
        List<String> out = new ArrayList<>();
        out.add("KEYS  (F1 closes this list)");
        for (int i = 0; i < rows; i++) {
            String left = entries.get(i);
            String right = i + rows < entries.size() ? entries.get(i + rows) : "";
            out.add(String.format(Locale.ROOT, "%-" + width + "s   %s", left, right).stripTrailing());
        }
        out.add("key file: " + keyFile);
        return out;
    }
}
