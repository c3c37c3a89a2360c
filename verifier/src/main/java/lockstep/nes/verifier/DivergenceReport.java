package lockstep.nes.verifier;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import lockstep.nes.core.trace.TracePair;

/**
 * Where two engines first disagreed: the cycle (engine A's count), frame, scanline and dot,
 * the instruction executing, every {@code component.field} that differs with both values, and
 * (when the re-run that localised it recorded them) both engines' last instructions up to it.
 *
 * @param trace the last {@link #TRACE_LINES} instructions of both engines from the re-run
 *              that localised the divergence, aligned at it; null when no re-run recorded them
 *              (a stall, a host failure, every-cycle mode, a host that does not send them)
 */
public record DivergenceReport(
        String session,
        String rom,
        String mode,
        long cycle,
        long frame,
        int scanline,
        int dot,
        String instructionAddress,
        String instruction,
        List<FieldDifference> fields,
        boolean reproduced,
        String note,
        List<String> injectedFaults,
        @JsonSerialize(using = TraceJson.class) TracePair trace) {

    /** How many instructions of each engine a divergence report shows. */
    public static final int TRACE_LINES = 32;

    /** One differing field: its path and the two engines' values as text. */
    public record FieldDifference(String field, String a, String b) {
    }

    /** StateDiff lines ({@code path: a -> b}) as field differences. */
    public static List<FieldDifference> fields(List<String> diffLines) {
        List<FieldDifference> fields = new java.util.ArrayList<>();
        for (String line : diffLines) {
            int colon = line.indexOf(": ");
            int arrow = line.lastIndexOf(" -> ");
            if (colon > 0 && arrow > colon) {
                fields.add(new FieldDifference(line.substring(0, colon), line.substring(colon + 2, arrow),
                        line.substring(arrow + 4)));
            } else {
                fields.add(new FieldDifference(line, "", ""));
            }
        }
        return fields;
    }

    /** The report as text for the terminal. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("DIVERGENCE at cycle ").append(cycle).append(" (frame ").append(frame)
                .append(", scanline ").append(scanline).append(", dot ").append(dot).append(")\n");
        sb.append("  instruction: ").append(instructionAddress).append("  ").append(instruction).append('\n');
        if (!reproduced) {
            sb.append("  note: ").append(note).append('\n');
        }
        sb.append("  differing fields (A -> B):\n");
        for (FieldDifference f : fields) {
            sb.append("    ").append(f.field()).append(": ").append(f.a()).append(" -> ").append(f.b()).append('\n');
        }
        if (trace != null) {
            sb.append("  ").append(traceHeading(trace)).append(":\n").append(trace.toText("    "));
        }
        return sb.toString();
    }

    /** The heading of a trace in text reports ("last 32 instructions before the divergence ..."). */
    public static String traceHeading(TracePair trace) {
        int first = trace.firstDifference();
        return "last " + trace.a().size() + " instructions before the divergence (A; B where it differs"
                + (first < 0 ? ": none does" : ", first at '>'") + ")";
    }
}
