package lockstep.nes.app;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Base64;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.HostClient;

/** The canary's report for a browser: summary table, each divergence, the two frames side by side. */
final class CanaryHtml {
    private CanaryHtml() {
    }

    /**
     * When and how the run was made: its start (UTC), how long it took, and the options that
     * shaped it ("--frames 5000", "--rom game.nes"), as a reader needs to repeat it.
     */
    record Run(Instant started, long millis, List<String> options) {
    }

    static String render(Path baseline, HostClient.Hello ha, Path candidate, HostClient.Hello hb,
                         List<CanaryResult> results, boolean passed) {
        return render(baseline, ha, candidate, hb, results, passed, null, null);
    }

    /** The page; {@code run} may be null, {@code interrupted} is null unless a signal stopped the run. */
    static String render(Path baseline, HostClient.Hello ha, Path candidate, HostClient.Hello hb,
                         List<CanaryResult> results, boolean passed, Run run, String interrupted) {
        // A run a signal stopped is neither a pass nor a failure: it says how far it got.
        String verdict = interrupted != null ? "INTERRUPTED" : passed ? "PASS" : "FAIL";
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lockstep canary: ")
                .append(verdict).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:2em;max-width:1100px}\n")
                .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}\n")
                .append(".pass{color:#060}.diverged,.error{color:#b00}pre{background:#f4f4f4;padding:8px;overflow:auto}\n")
                // A trace row is a whole nestest line per build: wider than the page, so its table
                // scrolls inside its own box instead of pushing the page out.
                .append(".wide{max-width:100%;overflow-x:auto}\n")
                .append("img{image-rendering:pixelated;width:512px;height:480px;border:1px solid #888}\n")
                .append("figure{display:inline-block;margin:0 1em 1em 0}\n")
                .append("table.trace td{font-family:monospace;font-size:12px;white-space:pre;border:none;"
                        + "padding:1px 6px}\n")
                .append("table.trace tr.differs td{background:#fde8e8}table.trace tr.first td{background:#f8b4b4;"
                        + "font-weight:bold}</style></head><body>\n");
        b.append("<h1>Canary: <span class=\"").append(passed ? "pass" : interrupted != null ? "interrupted" : "diverged")
                .append("\">").append(verdict).append("</span></h1>\n");
        if (interrupted != null) {
            b.append("<p class=\"interrupted\">").append(esc(interrupted)).append("</p>\n");
        }
        b.append("<table><tr><th></th><th>jar</th><th>build</th><th>state format</th></tr>\n");
        b.append("<tr><td>baseline</td><td>").append(esc(baseline.toString())).append("</td><td>").append(esc(ha.buildId()))
                .append("</td><td>v").append(ha.stateFormatVersion()).append("</td></tr>\n");
        b.append("<tr><td>candidate</td><td>").append(esc(candidate.toString())).append("</td><td>").append(esc(hb.buildId()))
                .append("</td><td>v").append(hb.stateFormatVersion()).append("</td></tr></table>\n");
        if (run != null) {
            b.append("<p>Run ").append(DateTimeFormatter.ISO_INSTANT.format(run.started().truncatedTo(ChronoUnit.SECONDS)))
                    .append(", took ").append(String.format(Locale.ROOT, "%.1f s", run.millis() / 1000.0))
                    .append("; options: <code>").append(esc(run.options().isEmpty() ? "(defaults)" : String.join(" ", run.options())))
                    .append("</code></p>\n");
        }
        b.append("<h2>Summary</h2>\n<table><tr><th>#</th><th>ROM</th><th>movie</th>"
                + "<th title=\"frames whose records matched, of the frames asked for\">frames matched</th>"
                + "<th>cycles (baseline)</th><th>result</th>"
                + "<th>final state hash, baseline build</th><th>final state hash, candidate build</th></tr>\n");
        for (int i = 0; i < results.size(); i++) {
            CanaryResult r = results.get(i);
            b.append("<tr><td><a href=\"#r").append(i + 1).append("\">").append(i + 1).append("</a></td><td>")
                    .append(esc(CanaryText.shortName(r.rom()))).append("</td><td>").append(esc(CanaryText.shortName(r.movie())))
                    .append("</td><td>").append(r.framesCompared()).append(" of ").append(r.framesRequested())
                    .append("</td><td>").append(r.cyclesBaseline())
                    .append("</td><td class=\"").append(r.status()).append("\">").append(r.status().toUpperCase())
                    .append("</td><td>").append(hash(r.finalStateHashBaseline()))
                    .append("</td><td>").append(hash(r.finalStateHashCandidate())).append("</td></tr>\n");
        }
        b.append("</table>\n");
        for (int i = 0; i < results.size(); i++) {
            CanaryResult r = results.get(i);
            b.append("<h2 id=\"r").append(i + 1).append("\">").append(i + 1).append(". ").append(esc(r.rom()))
                    .append(" <span class=\"").append(r.status()).append("\">").append(r.status().toUpperCase())
                    .append("</span></h2>\n<pre>").append(esc(CanaryText.result(r))).append("</pre>\n");
            CanaryResult.Divergence d = r.divergence();
            if (d != null && d.trace() != null) {
                trace(b, d.trace());
            }
            if (d != null && d.pixelsBaseline() != null && d.pixelsCandidate() != null
                    && d.observables() != null && d.observables().pixelsDiffering() > 0) {
                b.append("<p>Frame ").append(d.frame()).append(", side by side (the third image marks the ")
                        .append(d.observables().pixelsDiffering()).append(" differing pixels in red):</p>\n");
                figure(b, "baseline", png(image(d.pixelsBaseline())));
                figure(b, "candidate", png(image(d.pixelsCandidate())));
                figure(b, "difference", png(diff(d.pixelsBaseline(), d.pixelsCandidate())));
            }
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    /** A SHA-256 shortened to its first 16 digits (the whole in its tooltip), or nothing. */
    private static String hash(String h) {
        if (h == null || h.isEmpty()) {
            return "";
        }
        String shown = h.length() > 16 ? h.substring(0, 16) + "&hellip;" : esc(h);
        return "<code title=\"" + esc(h) + "\">" + shown + "</code>";
    }

    /**
     * Both builds' last instructions before the first divergent cycle in two columns, one row per
     * instruction counted back from it; rows that differ are tinted, the first one marked.
     */
    static void trace(StringBuilder b, TracePair t) {
        int first = t.firstDifference();
        b.append("<p>The last ").append(t.a().size()).append(" instructions before the first divergent cycle")
                .append(first < 0 ? " (the same in both builds)" : " (the first differing one marked &#9654;)")
                .append(":</p>\n<div class=\"wide\"><table class=\"trace\"><tr><th></th><th>baseline</th><th>candidate</th></tr>\n");
        for (int i = 0; i < t.a().size(); i++) {
            boolean differs = !t.a().get(i).equals(t.b().get(i));
            String row = i == first ? " class=\"first\"" : differs ? " class=\"differs\"" : "";
            b.append("<tr").append(row).append("><td>")
                    .append(i == first ? "&#9654;" : "").append("</td><td>").append(esc(t.a().get(i)))
                    .append("</td><td>").append(esc(t.b().get(i))).append("</td></tr>\n");
        }
        b.append("</table></div>\n");
    }

    private static void figure(StringBuilder b, String caption, String dataUri) {
        b.append("<figure><img alt=\"").append(caption).append("\" src=\"").append(dataUri)
                .append("\"><figcaption>").append(caption).append("</figcaption></figure>\n");
    }

    private static BufferedImage image(short[] pixels) {
        return FrameImage.toImage(pixels, Palette.ntsc());
    }

    private static BufferedImage diff(short[] x, short[] y) {
        BufferedImage img = image(x);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int px = i % Ppu.WIDTH;
            int py = i / Ppu.WIDTH;
            if (((x[i] ^ y[i]) & 0x1FF) != 0) {
                img.setRGB(px, py, 0xFF0000);
            } else {
                int c = img.getRGB(px, py);
                int g = (((c >> 16) & 0xFF) + ((c >> 8) & 0xFF) + (c & 0xFF)) / 6;
                img.setRGB(px, py, (g << 16) | (g << 8) | g);
            }
        }
        return img;
    }

    private static String png(BufferedImage img) {
        try {
            return "data:image/png;base64," + Base64.getEncoder().encodeToString(FrameImage.png(img));
        } catch (RuntimeException e) {
            return "";
        }
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
