package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.trace.TraceLine;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.core.trace.Tracer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A divergence report carries both engines' last 32 instructions up to the first divergent
 * cycle, from the re-run that localised it, in every mode: a RAM bit flipped in engine B just
 * before an instruction reads that byte makes B's line of that instruction differ (the value
 * read), and everything before it is the demo ROM's own trace, as an independent
 * {@link Tracer} run shows it.
 */
class DivergenceTraceTest {
    private static final Set<String> READS = Set.of("LDA", "LDX", "LDY", "CMP", "CPX", "CPY", "BIT", "ADC", "SBC",
            "AND", "ORA", "EOR");
    private static final Pattern ZERO_PAGE = Pattern.compile("\\$([0-9A-F]{2}) = ([0-9A-F]{2})");

    /** The demo ROM's instructions from power-on (untouched by any fault). */
    static List<TraceLine> reference;
    /** The index in {@link #reference} of the instruction whose zero-page byte B gets flipped. */
    static int target;
    static String fault;

    @BeforeAll
    static void traceTheDemo() throws Exception {
        Console c = Console.create(DemoRom.cartridge());
        List<TraceLine> lines = new ArrayList<>();
        new Tracer(c, x -> { }).trace(40_000, lines::add);
        reference = lines;
        // A zero-page read well inside a frame (the same-thread re-run starts at the frame's start).
        for (int i = 40; i < lines.size(); i++) {
            TraceLine l = lines.get(i);
            Matcher m = ZERO_PAGE.matcher(l.operand());
            if (l.cycle() > 100_000 && READS.contains(l.mnemonic()) && m.matches()
                    && lines.get(i - 40).frame() == l.frame()) {
                target = i;
                fault = "ram-bitflip@" + l.cycle() + ":B:$00" + m.group(1) + ":0";
                return;
            }
        }
        throw new AssertionError("the demo has no zero-page read to flip");
    }

    private static Lockstep.Options options() {
        Lockstep.Options o = new Lockstep.Options();
        o.romName = DemoRom.NAME;
        o.frames = 12;
        o.checkpointEvery = 1;
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 5;
        o.stallMillis = 10_000;
        o.faults = List.of(FaultSpec.parse(fault));
        return o;
    }

    private static Function<EpochFence, SessionMetrics> metrics(Lockstep.Options o) {
        return fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence);
    }

    /** The one report of a run with the planted fault, its trace checked against the reference. */
    private static DivergenceReport check(Lockstep.Result r) throws Exception {
        assertEquals(1, r.divergences().size(), r.divergences().toString());
        DivergenceReport d = r.divergences().get(0);
        TraceLine at = reference.get(target);
        assertEquals(at.cycle(), d.cycle(), d.toText());
        TracePair t = d.trace();
        assertNotNull(t, d.toText());
        assertEquals(DivergenceReport.TRACE_LINES, t.a().size(), d.toText());
        assertEquals(DivergenceReport.TRACE_LINES, t.b().size(), d.toText());
        List<String> expected = reference.subList(target - DivergenceReport.TRACE_LINES + 1, target + 1).stream()
                .map(TraceLine::nestest).toList();
        assertEquals(expected, t.a(), "engine A ran the demo's own instructions up to the divergent cycle");
        assertEquals(expected.subList(0, expected.size() - 1), t.b().subList(0, expected.size() - 1));
        // B's last line reads the flipped byte: the first (and only) difference.
        String last = t.b().get(DivergenceReport.TRACE_LINES - 1);
        assertNotEquals(expected.get(expected.size() - 1), last);
        Matcher m = ZERO_PAGE.matcher(at.operand());
        assertTrue(m.matches());
        String flipped = String.format("%02X", Integer.parseInt(m.group(2), 16) ^ 1);
        assertTrue(last.contains("$" + m.group(1) + " = " + flipped), last);
        assertEquals(DivergenceReport.TRACE_LINES - 1, t.firstDifference());

        String text = d.toText();
        assertTrue(text.contains("last 32 instructions before the divergence"), text);
        assertTrue(text.contains("    > A " + expected.get(expected.size() - 1)), text);
        assertTrue(text.contains("    > B " + last), text);
        assertTrue(text.contains("      A " + expected.get(0)), text);

        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(d));
        assertEquals(DivergenceReport.TRACE_LINES, json.get("trace").get("a").size(), json.toPrettyString());
        assertEquals(last, json.get("trace").get("b").get(DivergenceReport.TRACE_LINES - 1).asText());
        assertEquals(DivergenceReport.TRACE_LINES - 1, json.get("trace").get("firstDifference").asInt());
        assertEquals(d.cycle(), json.get("cycle").asLong(), "the existing fields stay as they were");
        return d;
    }

    @Test
    void sameThreadReportShowsTheLastInstructionsOfTheRelocation() throws Exception {
        Cartridge cart = DemoRom.cartridge();
        Lockstep.Options o = options();
        Lockstep s = new Lockstep(cart, o, metrics(o));
        check(s.run());
        assertEquals(1, s.relocations, "found over a chained frame and located by re-running it");
    }

    @Test
    void threadsReportShowsTheLastInstructionsOfTheReRun() throws Exception {
        Lockstep.Options o = options();
        check(new ThreadedLockstep(DemoRom.cartridge(), o, metrics(o)).run());
    }

    @Test
    void processesReportShowsTheLastInstructionsTheHostsSent() throws Exception {
        Lockstep.Options o = options();
        check(new ProcessLockstep(o, ProcessLockstepTest.hosts(), metrics(o)).run());
    }

    @Test
    void hostsBeforeProtocolVersionSixGiveTheSameReportWithoutATrace() throws Exception {
        Lockstep.Options o = options();
        HostSettings h = ProcessLockstepTest.hosts();
        h.mainClass = VersionFiveHost.class.getName();
        Lockstep.Result r = new ProcessLockstep(o, h, metrics(o)).run();
        assertEquals(1, r.divergences().size(), r.divergences().toString());
        DivergenceReport d = r.divergences().get(0);
        assertEquals(reference.get(target).cycle(), d.cycle(), d.toText());
        assertTrue(d.fields().stream().anyMatch(f -> f.field().startsWith("console.ram[")), d.toText());
        assertEquals(null, d.trace(), d.toText());
    }

    @Test
    void everyCycleModeShowsTheLastInstructionsToo() throws Exception {
        Lockstep.Options o = options();
        o.check = Lockstep.Check.EVERY_CYCLE;
        Lockstep s = new Lockstep(DemoRom.cartridge(), o, metrics(o));
        check(s.run());
        assertEquals(0, s.relocations, "found at its cycle: no stretch to relocate");
    }
}
