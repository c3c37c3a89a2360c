package lockstep.nes.roms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The --json shape, the closing line and the exit rule. */
class ReportTest {
    private static RomEntry entry(String rom, Expect expect) {
        return new RomEntry(rom, null, Family.STATUS_6000, null, List.of(), expect,
                expect == Expect.PASS ? null : "why", null, null, null, null, null, null, null, null);
    }

    @Test
    void jsonHasExactlyTheDocumentedShape() throws Exception {
        List<RomResult> rs = List.of(
                new RomResult(entry("a/1.nes", Expect.PASS), Status.PASS, 0, "Passed\n", 12, null),
                new RomResult(entry("a/2.nes", Expect.KNOWN_FAIL), Status.TIMEOUT, null, "no result", 900, null));
        JsonNode n = new ObjectMapper().readTree(Report.json(rs));
        assertEquals(List.of("results", "passed", "failed"), names(n));
        assertEquals(List.of("rom", "status", "code", "message", "frames"), names(n.get("results").get(0)));
        assertEquals("a/1.nes", n.get("results").get(0).get("rom").asText());
        assertEquals("pass", n.get("results").get(0).get("status").asText());
        assertEquals(0, n.get("results").get(0).get("code").asInt());
        assertEquals("Passed\n", n.get("results").get(0).get("message").asText());
        assertTrue(n.get("results").get(1).get("code").isNull());
        assertEquals("timeout", n.get("results").get(1).get("status").asText());
        assertEquals(900, n.get("results").get(1).get("frames").asInt());
        assertEquals(1, n.get("passed").asInt());
        assertEquals(1, n.get("failed").asInt());
        assertEquals("1 passed, 1 failed", Report.summary(rs));
        assertTrue(Report.expectationsMet(rs), "an expected failure does not break the exit code");
    }

    @Test
    void aPassRomThatFailsBreaksTheExitRule() {
        List<RomResult> rs = List.of(new RomResult(entry("a/1.nes", Expect.PASS), Status.FAIL, 2, "Failed #2", 5, null));
        assertFalse(Report.expectationsMet(rs));
        assertEquals("fail    2    a/1.nes: Failed #2  [expected pass]", Report.line(rs.get(0)));
    }

    @Test
    void lineMarksAnExpectedFailureThatNowPasses() {
        RomResult r = new RomResult(entry("b.nes", Expect.KNOWN_FAIL), Status.PASS, 0, "a\n\n  b  c\n", 5, null);
        assertEquals("pass    0    b.nes: a / b c  [known-fail now passes: update the manifest]", Report.line(r));
    }

    private static List<String> names(JsonNode n) {
        List<String> out = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
