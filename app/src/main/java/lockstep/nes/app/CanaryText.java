package lockstep.nes.app;

import java.nio.file.Path;
import java.util.List;
import lockstep.nes.verifier.CheckpointRing;
import lockstep.nes.verifier.DivergenceReport;
import lockstep.nes.verifier.canary.CanaryResult;

/** The canary's terminal output. */
final class CanaryText {
    private CanaryText() {
    }

    static String shortName(String path) {
        if (path == null) {
            return "-";
        }
        Path f = Path.of(path).getFileName();
        return f == null ? path : f.toString();
    }

    static String result(CanaryResult r) {
        StringBuilder b = new StringBuilder();
        String what = r.rom() + (r.movie() != null ? " with " + r.movie() : " (no movie)");
        switch (r.status()) {
            case "pass" -> {
                if (r.finalStateHashBaseline() != null && r.finalStateHashBaseline().equals(r.finalStateHashCandidate())) {
                    b.append(String.format("PASS  %s: %d frames, %d cycles, final state %s (both builds)%n", what,
                            r.framesCompared(), r.cyclesBaseline(), r.finalStateHashBaseline()));
                } else {
                    b.append(String.format("PASS  %s: %d frames, %d cycles; pixels, RAM and audio identical; state "
                            + "formats differ, so the state hashes (%s, %s) were not compared%n", what,
                            r.framesCompared(), r.cyclesBaseline(), r.finalStateHashBaseline(), r.finalStateHashCandidate()));
                }
            }
            case "error" -> b.append(String.format("ERROR %s: %s host %s%n", what, r.errorKind(), r.error()));
            default -> divergence(b, what, r);
        }
        return b.toString();
    }

    private static void divergence(StringBuilder b, String what, CanaryResult r) {
        CanaryResult.Divergence d = r.divergence();
        b.append(String.format("DIVERGED %s: frame %d differs in %s (%d frames matched before it)%n", what, d.frame(),
                String.join(", ", d.differing()), r.framesCompared()));
        b.append("  baseline : ").append(d.baselineRecord()).append('\n');
        b.append("  candidate: ").append(d.candidateRecord()).append('\n');
        CanaryResult.FirstCycle c = d.firstCycle();
        if (c != null) {
            b.append(String.format("  first divergent cycle %d (PPU frame %d, scanline %d, dot %d), re-run from the "
                    + "checkpoint at %s with per-cycle digests%n", c.cycle(), c.ppuFrame(), c.scanline(),
                    c.dot(), CheckpointRing.where(d.checkpointFrame(), d.checkpointCycle())));
            b.append("  instruction: ").append(c.instructionAddress()).append("  ").append(c.instruction());
            if (!c.candidateInstructionAddress().equals(c.instructionAddress())
                    || !c.candidateInstruction().equals(c.instruction())) {
                b.append("   (candidate: ").append(c.candidateInstructionAddress()).append("  ")
                        .append(c.candidateInstruction()).append(')');
            }
            b.append('\n');
            b.append("  differing fields (baseline -> candidate):\n");
            for (CanaryResult.FieldDifference f : c.fields()) {
                b.append("    ").append(f.field()).append(": ").append(f.baseline()).append(" -> ").append(f.candidate())
                        .append('\n');
            }
        }
        if (d.trace() != null) {
            b.append("  ").append(DivergenceReport.traceHeading(d.trace())).append(", A = baseline, B = candidate:\n")
                    .append(d.trace().toText("    "));
        }
        if (!d.note().isEmpty()) {
            b.append("  note: ").append(d.note()).append('\n');
        }
        CanaryResult.Observables o = d.observables();
        if (o != null) {
            b.append(String.format("  frame %d observables:%n", d.frame()));
            if (o.pixelsDiffering() > 0) {
                int[] box = o.pixelBox();
                b.append(String.format("    pixels: %d differ, within (%d,%d)-(%d,%d); first:", o.pixelsDiffering(), box[0],
                        box[1], box[2], box[3]));
                int n = 0;
                for (CanaryResult.PixelDifference p : o.pixels()) {
                    if (n++ == 8) {
                        b.append(" ...");
                        break;
                    }
                    b.append(String.format(" (%d,%d) %03x->%03x", p.x(), p.y(), p.baseline(), p.candidate()));
                }
                b.append('\n');
            } else {
                b.append("    pixels: identical\n");
            }
            if (o.ramBytesDiffering() > 0) {
                b.append(String.format("    RAM: %d byte(s) differ:", o.ramBytesDiffering()));
                int n = 0;
                for (CanaryResult.RamDifference x : o.ram()) {
                    if (n++ == 16) {
                        b.append(" ...");
                        break;
                    }
                    b.append(String.format(" %s %02x->%02x", x.address(), x.baseline(), x.candidate()));
                }
                b.append('\n');
            } else {
                b.append("    RAM: identical\n");
            }
            if (o.audio() != null) {
                CanaryResult.AudioDifference a = o.audio();
                b.append(String.format("    audio: %d vs %d samples, %d differ, first at sample %d%n", a.samplesBaseline(),
                        a.samplesCandidate(), a.samplesDiffering(), a.firstDifferingSample()));
            } else {
                b.append("    audio: identical\n");
            }
        }
    }

    static String table(List<CanaryResult> results) {
        String[] head = {"#", "ROM", "movie", "frames", "cycles", "result", "first divergence"};
        String[][] rows = new String[results.size()][];
        for (int i = 0; i < results.size(); i++) {
            CanaryResult r = results.get(i);
            String first = "";
            if (r.divergence() != null) {
                CanaryResult.Divergence d = r.divergence();
                first = "frame " + d.frame() + (d.firstCycle() != null ? ", cycle " + d.firstCycle().cycle()
                        + (d.firstCycle().fields().isEmpty() ? "" : ", " + d.firstCycle().fields().get(0).field()) : "");
            } else if (r.error() != null) {
                first = r.errorKind();
            }
            rows[i] = new String[] {Integer.toString(i + 1), shortName(r.rom()), shortName(r.movie()),
                Integer.toString(r.framesCompared()), Long.toString(r.cyclesBaseline()), r.status().toUpperCase(), first};
        }
        int[] w = new int[head.length];
        for (int c = 0; c < head.length; c++) {
            w[c] = head[c].length();
            for (String[] row : rows) {
                w[c] = Math.max(w[c], row[c].length());
            }
        }
        StringBuilder b = new StringBuilder("\n");
        line(b, head, w);
        StringBuilder sep = new StringBuilder();
        for (int c = 0; c < w.length; c++) {
            sep.append("-".repeat(w[c])).append(c + 1 < w.length ? "  " : "");
        }
        b.append(sep).append('\n');
        for (String[] row : rows) {
            line(b, row, w);
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String[] cells, int[] w) {
        for (int c = 0; c < cells.length; c++) {
            b.append(cells[c]);
            if (c + 1 < cells.length) {
                b.append(" ".repeat(w[c] - cells[c].length() + 2));
            }
        }
        b.append('\n');
    }
}
