package lockstep.nes.netplay;

import lockstep.nes.verifier.DivergenceReport;

/**
 * One desync: the first confirmed frame whose digests differed, where this peer stood when it
 * was seen, whether both peers' snapshots of the last agreed frame's end were the same bytes, and
 * where re-running the disputed frame from there with both peers' engines (their planted faults)
 * and both input streams first showed a difference: cycle, instruction and every differing
 * {@code component.field}, A the host's value and B the joiner's.
 *
 * @param localized null when the re-run showed no difference (the engines are not deterministic)
 */
public record DesyncReport(int frame, int detectedAtFrame, long hostDigest, long joinerDigest,
                           boolean agreedSnapshotsEqual, DivergenceReport localized, String resumedFrom) {

    /** One line for the terminal. */
    public String toLine() {
        StringBuilder sb = new StringBuilder("netplay: DESYNC at frame ").append(frame)
                .append(" (seen at frame ").append(detectedAtFrame).append(")");
        if (localized != null) {
            sb.append(": cycle ").append(localized.cycle()).append(", ").append(localized.instructionAddress())
                    .append(' ').append(localized.instruction());
            for (DivergenceReport.FieldDifference f : localized.fields()) {
                sb.append(", ").append(f.field()).append(" host ").append(f.a()).append(" joiner ").append(f.b());
            }
        } else {
            sb.append(": not reproduced by re-running the frame");
        }
        return sb.append("; resumed from the host's state").toString();
    }
}
