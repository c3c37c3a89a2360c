package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.HostClient;
import org.junit.jupiter.api.Test;

/** The text, HTML and JSON forms of a divergence whose pixels differ. */
class CanaryReportTest {
    static CanaryResult diverged() {
        short[] a = new short[256 * 240];
        short[] b = new short[256 * 240];
        java.util.Arrays.fill(a, (short) 0x0F);
        java.util.Arrays.fill(b, (short) 0x0F);
        b[10 * 256 + 20] = 0x30;
        b[12 * 256 + 25] = 0x16;
        CanaryResult.Observables obs = new CanaryResult.Observables(2, new int[] {20, 10, 25, 12},
                List.of(new CanaryResult.PixelDifference(20, 10, 0x0F, 0x30),
                        new CanaryResult.PixelDifference(25, 12, 0x0F, 0x16)),
                1, List.of(new CanaryResult.RamDifference("$0010", 1, 2)), null);
        CanaryResult.FirstCycle fc = new CanaryResult.FirstCycle(1234, 1, 100, 200, "$C000", "LDA #$00", "$C000",
                "LDA #$00", List.of(new CanaryResult.FieldDifference("cpu.p", "38", "36")));
        CanaryResult.Divergence d = new CanaryResult.Divergence(3, List.of("pixels", "ram", "state"), "frame 3: ...",
                "frame 3: ...", 0, -1, true, fc, obs, true, "", a, b, trace());
        return new CanaryResult("demo.nes", null, 10, 3, "diverged", 100, 100, "aa", "bb", d, null, null, 5);
    }

    /** Three instructions, the same in both builds but for the last, which reads another value. */
    static TracePair trace() {
        String same1 = "C000  A9 00     LDA #$00                        A:00 X:00 Y:00 P:24 SP:FD PPU:  0, 21 CYC:7";
        String same2 = "C002  85 10     STA $10 = 00                    A:00 X:00 Y:00 P:26 SP:FD PPU:  0, 27 CYC:9";
        String a = "C004  A5 11     LDA $11 = 01                    A:00 X:00 Y:00 P:26 SP:FD PPU:  0, 36 CYC:12";
        String b = "C004  A5 11     LDA $11 = 03                    A:00 X:00 Y:00 P:26 SP:FD PPU:  0, 36 CYC:12";
        return new TracePair(List.of(same1, same2, a), List.of(same1, same2, b));
    }

    @Test
    void htmlShowsTheTraceAsTwoColumnsWithTheFirstDifferenceMarked() {
        HostClient.Hello h = new HostClient.Hello(6, 1, "build-a", "17");
        String page = CanaryHtml.render(Path.of("a.jar"), h, Path.of("b.jar"), h, List.of(diverged()), false, null, null);
        assertTrue(page.contains("<table class=\"trace\"><tr><th></th><th>baseline</th><th>candidate</th></tr>"), page);
        assertTrue(page.contains("<tr class=\"first\"><td>&#9654;</td><td>C004  A5 11     LDA $11 = 01"), page);
        assertTrue(page.contains("</td><td>C004  A5 11     LDA $11 = 03"), page);
        assertEquals(1, page.split("class=\"first\"", -1).length - 1, "one row marked first");
        assertTrue(page.contains("<tr><td></td><td>C000  A9 00"), page);
    }

    @Test
    void htmlShowsBothFramesAndTheirDifferenceAsPngs() {
        HostClient.Hello h = new HostClient.Hello(1, 1, "build-a", "17");
        String page = CanaryHtml.render(Path.of("a.jar"), h, Path.of("b.jar"), h, List.of(diverged()), false, null, null);
        int images = page.split("data:image/png;base64,", -1).length - 1;
        assertEquals(3, images, "baseline, candidate, difference");
        assertTrue(page.contains("cpu.p: 38 -&gt; 36"), page);
        assertTrue(page.contains("FAIL"));
    }

    @Test
    void textNamesCycleFieldPixelsAndRam() {
        String t = CanaryText.result(diverged());
        assertTrue(t.contains("first divergent cycle 1234 (PPU frame 1, scanline 100, dot 200)"), t);
        assertTrue(t.contains("cpu.p: 38 -> 36"), t);
        assertTrue(t.contains("pixels: 2 differ, within (20,10)-(25,12); first: (20,10) 00f->030"), t);
        assertTrue(t.contains("RAM: 1 byte(s) differ: $0010 01->02"), t);
        assertTrue(t.contains("last 3 instructions before the divergence"), t);
        assertTrue(t.contains("      A C000  A9 00"), t);
        assertTrue(t.contains("    > A C004  A5 11     LDA $11 = 01"), t);
        assertTrue(t.contains("    > B C004  A5 11     LDA $11 = 03"), t);
        String table = CanaryText.table(List.of(diverged(), diverged()));
        assertTrue(table.contains("DIVERGED") && table.contains("frame 3, cycle 1234, cpu.p"), table);
    }

    @Test
    void jsonLeavesThePixelArraysOut() throws Exception {
        String json = new ObjectMapper().writeValueAsString(diverged());
        assertFalse(json.contains("pixelsBaseline"), json);
        assertTrue(json.contains("\"firstCycle\":{\"cycle\":1234"), json);
        com.fasterxml.jackson.databind.JsonNode t = new ObjectMapper().readTree(json).get("divergence").get("trace");
        assertEquals(3, t.get("a").size(), json);
        assertEquals(3, t.get("b").size(), json);
        assertEquals(2, t.get("firstDifference").asInt(), json);
        assertTrue(t.get("b").get(2).asText().contains("LDA $11 = 03"), json);
    }
}
