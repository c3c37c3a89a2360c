package lockstep.nes.verifier;

import java.util.List;

/**
 * Where two engines first disagreed: the cycle (engine A's count), frame, scanline and dot,
 * the instruction executing, and every {@code component.field} that differs with both values.
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
        List<String> injectedFaults) {

    /** One differing field: its path and the two engines' values as text. */
    public record FieldDifference(String field, String a, String b) {
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
        return sb.toString();
    }
}
