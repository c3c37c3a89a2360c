package lockstep.nes.core.trace;

import java.util.List;

/**
 * Two engines' last instructions before their first divergent cycle, side by side: line i of
 * each is the i-th instruction counted back from the divergence. {@link #firstDifference} is
 * the first line whose text differs (-1 when none does: the engines ran the same instructions
 * and differ in something no trace line shows).
 */
public record TracePair(List<String> a, List<String> b) {
    public TracePair {
        a = List.copyOf(a);
        b = List.copyOf(b);
    }

    /** From two rings' lines, aligned at their ends (the divergence), in nestest's form. */
    public static TracePair of(List<TraceLine> a, List<TraceLine> b) {
        return ofText(a.stream().map(TraceLine::nestest).toList(), b.stream().map(TraceLine::nestest).toList());
    }

    /** From two lists of trace lines as text (oldest first), aligned at their ends (the divergence). */
    public static TracePair ofText(List<String> a, List<String> b) {
        int n = Math.min(a.size(), b.size());
        return new TracePair(a.subList(a.size() - n, a.size()), b.subList(b.size() - n, b.size()));
    }

    public int firstDifference() {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The two traces as text: each instruction on two lines, {@code A} then {@code B}; the
     * first differing pair is marked {@code >}, later pairs that differ {@code !}.
     */
    public String toText(String indent) {
        StringBuilder sb = new StringBuilder();
        int first = firstDifference();
        for (int i = 0; i < a.size(); i++) {
            boolean differs = !a.get(i).equals(b.get(i));
            String mark = i == first ? ">" : differs ? "!" : " ";
            sb.append(indent).append(mark).append(" A ").append(a.get(i)).append('\n');
            if (differs) {
                sb.append(indent).append(mark).append(" B ").append(b.get(i)).append('\n');
            }
        }
        return sb.toString();
    }
}
