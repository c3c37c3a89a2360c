package lockstep.nes.verifier.canary;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.verifier.TraceJson;

/** The outcome of one ROM x movie pair run through both builds. */
public record CanaryResult(
        String rom,
        String movie,
        int framesRequested,
        int framesCompared,
        /** "pass", "diverged" or "error" (a host crashed, hung or refused: never a pass). */
        String status,
        long cyclesBaseline,
        long cyclesCandidate,
        String finalStateHashBaseline,
        String finalStateHashCandidate,
        Divergence divergence,
        String errorKind,
        String error,
        long millis) {

    public boolean passed() {
        return status.equals("pass");
    }

    /**
     * The first frame whose records differ, and what the re-runs found.
     *
     * @param trace both builds' last instructions (A = baseline, B = candidate) up to the first
     *              divergent cycle, from the re-run that named it; null when there is no such
     *              cycle or a host does not send its instructions
     */
    public record Divergence(
            int frame,
            List<String> differing,
            String baselineRecord,
            String candidateRecord,
            int checkpointFrame,
            long checkpointCycle,
            boolean sameStateFormat,
            FirstCycle firstCycle,
            Observables observables,
            boolean reproduced,
            String note,
            @JsonIgnore short[] pixelsBaseline,
            @JsonIgnore short[] pixelsCandidate,
            @JsonSerialize(using = TraceJson.class) TracePair trace) {
    }

    /** The first cycle whose digests differ, where the engines stand, and the differing fields. */
    public record FirstCycle(
            long cycle,
            long ppuFrame,
            int scanline,
            int dot,
            String instructionAddress,
            String instruction,
            String candidateInstructionAddress,
            String candidateInstruction,
            List<FieldDifference> fields) {
    }

    public record FieldDifference(String field, String baseline, String candidate) {
    }

    /** The divergent frame's observables compared. */
    public record Observables(
            int pixelsDiffering,
            /** x0, y0, x1, y1 of the differing pixels (inclusive), or null. */
            int[] pixelBox,
            List<PixelDifference> pixels,
            int ramBytesDiffering,
            List<RamDifference> ram,
            AudioDifference audio) {
    }

    /** A differing pixel: its 9-bit PPU values (palette index | emphasis << 6). */
    public record PixelDifference(int x, int y, int baseline, int candidate) {
    }

    public record RamDifference(String address, int baseline, int candidate) {
    }

    public record AudioDifference(int samplesBaseline, int samplesCandidate, int firstDifferingSample,
                                  int samplesDiffering) {
    }
}
