package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import lockstep.nes.verifier.host.HostClient;
import org.junit.jupiter.api.Test;

/** What the canary's HTML page tells a reader who was not there: when, how long, how, and what each number is. */
class CanaryHtmlTest {
    private static final HostClient.Hello HELLO = new HostClient.Hello(6, 1, "build-a", "17");

    private static String page() {
        CanaryHtml.Run run = new CanaryHtml.Run(Instant.parse("2026-12-05T06:30:12.345Z"), 15_250,
                List.of("--rom game.nes", "--frames 5000", "--timeout 120"));
        return CanaryHtml.render(Path.of("a.jar"), HELLO, Path.of("b.jar"), HELLO, List.of(CanaryReportTest.diverged()),
                false, run, null);
    }

    @Test
    void itSaysWhenTheRunWasMadeHowLongItTookAndWithWhichOptions() {
        String page = page();
        assertTrue(page.contains("<p>Run 2026-12-05T06:30:12Z, took 15.3 s; options: <code>--rom game.nes --frames 5000 "
                + "--timeout 120</code></p>"), page);
    }

    @Test
    void framesAreCountedAsMatchedOfAskedAndEachHashNamesItsBuild() {
        String page = page();
        assertTrue(page.contains(">frames matched</th>"), page);
        assertFalse(page.contains("<th>frames</th>"), page);
        // diverged(): 3 frames matched of the 10 asked for.
        assertTrue(page.contains("<td>3 of 10</td>"), page);
        assertTrue(page.contains("<th>final state hash, baseline build</th><th>final state hash, candidate build</th>"), page);
        assertTrue(page.contains("<code title=\"aa\">aa</code></td><td><code title=\"bb\">bb</code>"), page);
    }

    @Test
    void theTraceTableScrollsInsideItsOwnBox() {
        String page = page();
        assertTrue(page.contains(".wide{max-width:100%;overflow-x:auto}"), page);
        int box = page.indexOf("<div class=\"wide\"><table class=\"trace\">");
        assertTrue(box > 0, page);
        assertEquals(box + "<div class=\"wide\">".length(), page.indexOf("<table class=\"trace\">"));
        assertTrue(page.indexOf("</table></div>", box) > box, page);
    }
}
