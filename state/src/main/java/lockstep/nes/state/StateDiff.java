package lockstep.nes.state;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Field-by-field difference of two state descriptions: one line per differing
 * {@code component.field}; arrays as index ranges with both sides' values.
 */
public final class StateDiff {
    /** At most this many elements of a differing range are printed per side. */
    private static final int SHOW = 32;

    private StateDiff() {
    }

    public static List<String> diff(List<StateEntry> a, List<StateEntry> b) {
        TreeMap<String, StateEntry> byPathB = new TreeMap<>();
        for (StateEntry e : b) {
            byPathB.put(e.path(), e);
        }
        TreeMap<String, StateEntry> byPathA = new TreeMap<>();
        for (StateEntry e : a) {
            byPathA.put(e.path(), e);
        }
        List<String> out = new ArrayList<>();
        for (StateEntry x : a) {
            StateEntry y = byPathB.get(x.path());
            if (y == null) {
                out.add(x.path() + ": only in A");
            } else if (x.tag() != y.tag() || x.length() != y.length()) {
                out.add(x.path() + ": A is " + shape(x) + ", B is " + shape(y));
            } else if (!x.sameValue(y)) {
                if (x.isArray()) {
                    arrayDiff(x, y, out);
                } else {
                    out.add(x.path() + ": " + x.scalarText() + " -> " + y.scalarText());
                }
            }
        }
        for (StateEntry y : b) {
            if (!byPathA.containsKey(y.path())) {
                out.add(y.path() + ": only in B");
            }
        }
        return out;
    }

    private static String shape(StateEntry e) {
        return EntryTag.name(e.tag()) + (e.isArray() ? "[" + e.length() + "]" : "");
    }

    private static void arrayDiff(StateEntry x, StateEntry y, List<String> out) {
        int n = x.length();
        int i = 0;
        while (i < n) {
            if (x.element(i) == y.element(i)) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && x.element(i) != y.element(i)) {
                i++;
            }
            int end = i - 1;
            String range = start == end ? "[" + hexIndex(start) + "]" : "[" + hexIndex(start) + ".." + hexIndex(end) + "]";
            out.add(x.path() + range + ": " + values(x, start, end) + " -> " + values(y, start, end));
        }
    }

    private static String hexIndex(int i) {
        return "0x" + Integer.toHexString(i);
    }

    private static String values(StateEntry e, int start, int end) {
        StringBuilder b = new StringBuilder();
        int last = Math.min(end, start + SHOW - 1);
        for (int i = start; i <= last; i++) {
            if (i > start) {
                b.append(' ');
            }
            if (e.bytes() != null) {
                String h = Integer.toHexString(e.bytes()[i] & 0xFF);
                b.append(h.length() == 1 ? "0" + h : h);
            } else {
                b.append(e.ints()[i]);
            }
        }
        if (last < end) {
            b.append(" ...");
        }
        return b.toString();
    }
}
