package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import org.junit.jupiter.api.Test;

/**
 * Processes mode: two engine-host JVMs (started from this module's class path) streaming their
 * per-cycle digests; every fault kind is found at its exact cycle and field, a stall is reported
 * as a stall with the drift and waited for, a killed host is never a pass.
 */
class ProcessLockstepTest {
    private static final String HOST_MAIN = "lockstep.nes.verifier.host.EngineHost";

    private static Lockstep.Options options(int frames, String... faults) {
        Lockstep.Options o = new Lockstep.Options();
        o.romName = DemoRom.NAME;
        o.frames = frames;
        o.checkpointEvery = 1;
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 5;
        // A clean host is never silent this long, even on a loaded CI machine.
        o.stallMillis = 10_000;
        o.faults = Arrays.stream(faults).map(FaultSpec::parse).toList();
        return o;
    }

    /** The hosts of these tests: the demo ROM, this module's host entry point, a 60 s timeout. */
    static HostSettings hosts() {
        HostSettings h = new HostSettings();
        h.romImage = DemoRom.bytes();
        h.mainClass = HOST_MAIN;
        h.timeoutMillis = 60_000;
        return h;
    }

    private static ProcessLockstep session(Lockstep.Options o, HostSettings h, PrometheusMeterRegistry registry) {
        return new ProcessLockstep(o, h, fence -> new SessionMetrics(registry, o.session, fence));
    }

    private static ProcessLockstep session(Lockstep.Options o, PrometheusMeterRegistry registry) {
        return session(o, hosts(), registry);
    }

    private static ProcessLockstep session(Lockstep.Options o) {
        return session(o, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    private static List<String> fieldNames(DivergenceReport d) {
        return d.fields().stream().map(DivergenceReport.FieldDifference::field).toList();
    }

    @Test
    void cleanRunMatchesTheSameThreadMode() throws Exception {
        Lockstep.Result procs = session(options(5)).run();
        assertFalse(procs.diverged(), () -> procs.divergences().get(0).toText());
        assertTrue(procs.completed());
        assertEquals(5, procs.frames());
        Cartridge cart = DemoRom.cartridge();
        Lockstep.Result same = VerifySession.create(VerifySession.Mode.SAME_THREAD, cart, options(5),
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "x", fence)).run();
        assertEquals(same.finalStateHash(), procs.finalStateHash());
        assertEquals(same.cyclesVerified(), procs.cyclesVerified());
        assertTrue(procs.cyclesVerified() > 5 * 29_000, "cycles verified: " + procs.cyclesVerified());
    }

    @Test
    void pokesThatWriteTheValueAlreadyThereDoNotDivergeAndAChangedValueDoes() throws Exception {
        // The hosts stream representation digests (version 4): each is revisited where the other's
        // state faults fire, so a poke of the value already there is no divergence...
        Cartridge cart = DemoRom.cartridge();
        String[] same = {
            "reg@40000:A:ppu.mask=" + ThreadedLockstepTest.valueAt(cart, "ppu.mask", 40000),
            "reg@61234:B:apu.fcCycle=" + ThreadedLockstepTest.valueAt(cart, "apu.fcCycle", 61234),
            "reg@61234:A:ppu.v=" + ThreadedLockstepTest.valueAt(cart, "ppu.v", 61234),
        };
        Lockstep.Result r = session(options(4, same)).run();
        assertFalse(r.diverged(), () -> r.divergences().get(0).toText());
        assertTrue(r.completed());
        // ... while one more, changing a value, is found at its cycle.
        String[] changed = Arrays.copyOf(same, same.length + 1);
        long mask = ThreadedLockstepTest.valueAt(cart, "ppu.mask", 80000);
        changed[same.length] = "reg@80000:B:ppu.mask=" + (mask ^ 0x01);
        Lockstep.Result d = session(options(4, changed)).run();
        assertTrue(d.diverged());
        assertEquals(80000, d.divergences().get(0).cycle(), () -> d.divergences().get(0).toText());
        assertEquals(List.of("ppu.mask"), fieldNames(d.divergences().get(0)));
        assertTrue(d.completed(), "rolled back and completed");
    }

    @Test
    void movieInputIsFedToBothHostsAsToTheSameThreadEngines() throws Exception {
        // Buttons, a power cycle at frame 1 (the console's cycle count restarts, the stream
        // position does not; the report still names the fault by the console's cycle) and a soft
        // reset at frame 3.
        List<Movie.Frame> frames = List.of(new Movie.Frame(0, 0x01, 0), new Movie.Frame(Fm2.COMMAND_POWER, 0x08, 0x80),
                new Movie.Frame(0, 0x10, 0), new Movie.Frame(Fm2.COMMAND_RESET, 0, 0),
                new Movie.Frame(0, 0x20, 0x02), new Movie.Frame(0, 0x40, 0));
        Movie movie = new Movie(List.of(), frames);
        Lockstep.Options clean = options(6);
        clean.input = new MovieInput(movie);
        Lockstep.Result procs = session(clean).run();
        assertFalse(procs.diverged(), () -> procs.divergences().get(0).toText());
        Lockstep.Options same = options(6);
        same.input = new MovieInput(movie);
        Lockstep.Result ref = VerifySession.create(VerifySession.Mode.SAME_THREAD, DemoRom.cartridge(), same,
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "x", fence)).run();
        assertEquals(ref.finalStateHash(), procs.finalStateHash());
        Lockstep.Result none = session(options(6)).run();
        assertFalse(none.finalStateHash().equals(procs.finalStateHash()), "the movie changed the run");

        // Cycle 35000 is first reached after the power cycle: the power-on frame and the frame
        // the power command begins each end near 27,400 cycles, so it falls in input frame 2.
        Lockstep.Options faulty = options(6, "reg@35000:B:cpu.x=9");
        faulty.input = new MovieInput(movie);
        Lockstep.Result r = session(faulty).run();
        DivergenceReport d = r.divergences().get(0);
        assertEquals(35000, d.cycle(), d.toText());
        assertTrue(d.fields().stream().anyMatch(f -> f.field().equals("cpu.x") && f.b().equals("0x09")), d.toText());
        assertTrue(r.completed(), r.stopReason());
        assertEquals(ref.finalStateHash(), r.finalStateHash(), "rolled back and finished like the clean run");

        // With checkpoints every third frame the newest before the fault is the power-on one: the
        // power command between them restarted the console's count, and the report still tells
        // the console's cycle, not the stream position.
        Lockstep.Options sparse = options(6, "ram-bitflip@35000:B:$0077:4");
        sparse.checkpointEvery = 3;
        sparse.input = new MovieInput(movie);
        Lockstep.Result e = session(sparse).run();
        DivergenceReport de = e.divergences().get(0);
        assertEquals(35000, de.cycle(), de.toText());
        assertEquals(List.of("console.ram[0x77]"), fieldNames(de));
        assertTrue(de.note().contains("checkpoint at frame 0"), de.note());
        assertTrue(e.completed(), e.stopReason());
        assertEquals(ref.finalStateHash(), e.finalStateHash(), "rolled back and finished like the clean run");
    }

    @Test
    void everyStateFaultIsFoundAtItsCycleAndFieldAndRolledBack() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ProcessLockstep s = session(options(6, "ram-bitflip@40000:A:$0077:4", "vram-bitflip@70000:B:$0400:2",
                "reg@100000:B:cpu.y=7", "skip-cycle@130000:A"), registry);
        Lockstep.Result r = s.run();
        List<DivergenceReport> d = r.divergences();
        assertEquals(4, d.size(), d.toString());

        assertEquals(40000, d.get(0).cycle());
        assertEquals("processes", d.get(0).mode());
        assertFalse(d.get(0).reproduced(), "a one-shot fault does not reproduce on a clean re-run");
        assertTrue(d.get(0).note().contains("does not reproduce"), d.get(0).note());
        assertEquals(List.of("console.ram[0x77]"), fieldNames(d.get(0)));

        assertEquals(70000, d.get(1).cycle());
        assertEquals(List.of("mapper.ciram[0x400]"), fieldNames(d.get(1)));

        assertEquals(100000, d.get(2).cycle());
        assertTrue(d.get(2).fields().stream().anyMatch(f -> f.field().equals("cpu.y") && f.b().equals("0x07")),
                d.get(2).toText());

        assertEquals(130000, d.get(3).cycle());
        assertTrue(fieldNames(d.get(3)).contains("console.cycle"), d.get(3).toText());
        assertTrue(d.get(3).injectedFaults().contains("skip-cycle@130000:A"), d.get(3).injectedFaults().toString());

        // Each was rolled back to a verified checkpoint in a new epoch, and the run completed.
        assertEquals(4, r.rollbacks());
        assertEquals(5, s.fence().current());
        assertTrue(r.completed(), r.stopReason());
        assertEquals(6, r.frames());
        String scrape = registry.scrape();
        assertTrue(scrape.contains("lockstep_rollbacks_total{session=\"lockstep\"} 4.0"), scrape);
        assertTrue(scrape.contains("lockstep_state_divergence_flag{session=\"lockstep\"} 0.0"), scrape);
    }

    @Test
    void stalledHostIsReportedAsAStallWithTheDriftAndWaitedFor() throws Exception {
        // The stall falls in frame 15, after the hosts' pace has settled (the slow first frames
        // of a cold JIT fade out of it).
        Lockstep.Options o = options(18, "stall@450000:B:8000");
        o.stallMillis = 1500;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ProcessLockstep s = session(o, registry);
        Lockstep.Result r = s.run();
        assertFalse(r.diverged(), "a stall is never a divergence");
        assertEquals(0, r.rollbacks(), "nothing is rolled back for a stall");
        assertTrue(r.completed(), r.stopReason());
        // The stall fault's stall (a loaded machine may add stalls of its own: each one a stall too).
        StallReport st = r.stalls().stream().filter(x -> x.afterCycle() == 449999).findFirst().orElseThrow(
                () -> new AssertionError("no stall after cycle 449999: " + r.stalls()));
        assertEquals("host B", st.who());
        assertTrue(st.resumed(), st.toText());
        assertTrue(st.drift() > o.maxDrift && st.drift() <= 3L * hosts().streamChunk(true),
                "drift " + st.drift() + " (bounded by the credit)");
        String scrape = registry.scrape();
        assertTrue(scrape.contains("lockstep_stalls_total{session=\"lockstep\"} " + r.stalls().size() + ".0"), scrape);
        assertTrue(scrape.contains("lockstep_divergences_total{session=\"lockstep\"} 0.0"), scrape);
    }

    @Test
    void killedHostIsReportedAsCrashedNeverAsAPass() throws Exception {
        ProcessLockstep s = session(options(600));
        AtomicReference<Lockstep.Result> result = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(s.run());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        long until = System.nanoTime() + 60_000_000_000L;
        while ((s.hostPids()[0] < 0 || s.hostPids()[1] < 0) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        Thread.sleep(500);
        long pid = s.hostPids()[1];
        assertTrue(pid > 0);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        t.join(60_000);
        Lockstep.Result r = result.get();
        assertNotNull(r);
        assertFalse(r.completed());
        assertTrue(r.diverged(), "a crash is reported like a divergence (exit 1)");
        DivergenceReport d = r.divergences().get(0);
        assertEquals("host B crashed", d.fields().get(0).field(), d.toText());
        assertTrue(r.stopReason().contains("crashed"), r.stopReason());
    }

    @Test
    void hostSilentPastTheTimeoutIsReportedAsHungAndKilled() throws Exception {
        Lockstep.Options o = options(4, "stall@50000:B:30000");
        HostSettings h = hosts();
        h.timeoutMillis = 3000; // also bounds LOAD_ROM etc. on a cold, loaded JVM
        ProcessLockstep s = session(o, h, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Lockstep.Result r = s.run();
        assertFalse(r.completed());
        DivergenceReport d = r.divergences().get(0);
        assertEquals("host B hung", d.fields().get(0).field(), d.toText());
        assertTrue(d.note().contains("after cycle 49999 (killed)"), d.note());
        assertTrue(r.stopReason().contains("hung"), r.stopReason());
    }

    @Test
    void onAlertHaltsUntilTheWebhookOrdersTheRollback() throws Exception {
        Lockstep.Options o = options(4, "reg@50000:A:cpu.a=$42");
        o.rollback = Lockstep.Rollback.ON_ALERT;
        o.alertWaitMillis = 60_000;
        ProcessLockstep s = session(o);
        AtomicReference<Lockstep.Result> result = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(s.run());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        AlertWebhook.Outcome outcome = s.rollbackOnAlert();
        long until = System.nanoTime() + 60_000_000_000L;
        while (!outcome.done() && System.nanoTime() < until) {
            Thread.sleep(100);
            outcome = s.rollbackOnAlert();
        }
        assertTrue(outcome.done(), outcome.toString());
        t.join(60_000);
        Lockstep.Result r = result.get();
        assertEquals(1, r.rollbacks());
        assertTrue(r.completed(), r.stopReason());
        assertEquals(50000, r.divergences().get(0).cycle());
        assertTrue(fieldNames(r.divergences().get(0)).contains("cpu.a"), r.divergences().get(0).toText());
    }
}
