package lockstep.nes.verifier;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.List;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

class ThreadedLockstepTest {
    private static Cartridge rom() throws Exception {
        return Cartridge.load(TestRoms.require("spritecans-2011/spritecans.nes"));
    }

    private static Lockstep.Options options(int frames, String... faults) {
        Lockstep.Options o = new Lockstep.Options();
        o.frames = frames;
        o.checkpointEvery = 2;
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 5;
        o.stallMillis = 300;
        o.faults = Arrays.stream(faults).map(FaultSpec::parse).toList();
        return o;
    }

    private static ThreadedLockstep session(Cartridge cart, Lockstep.Options o) {
        return new ThreadedLockstep(cart, o,
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence));
    }

    @Test
    void cleanRunMatchesTheSameThreadMode() throws Exception {
        Cartridge cart = rom();
        Lockstep.Result threaded = session(cart, options(6)).run();
        assertFalse(threaded.diverged());
        assertTrue(threaded.completed());
        Lockstep.Result same = VerifySession.create(VerifySession.Mode.SAME_THREAD, cart, options(6),
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "x", fence)).run();
        assertEquals(same.finalStateHash(), threaded.finalStateHash());
        assertEquals(same.cyclesVerified(), threaded.cyclesVerified());
    }

    /** The value of described field {@code path} after cycle {@code cycle} of a clean run (no input). */
    static long valueAt(Cartridge cart, String path, long cycle) throws Exception {
        lockstep.nes.core.Console c = lockstep.nes.core.Console.create(cart);
        while (c.cycles() < cycle) {
            c.runCycle();
        }
        for (lockstep.nes.state.StateEntry e : lockstep.nes.state.Describer.describe(c)) {
            if (e.path().equals(path)) {
                return e.value();
            }
        }
        throw new AssertionError("no field " + path);
    }

    @Test
    void pokesThatWriteTheValueAlreadyThereDoNotDiverge() throws Exception {
        // The representation digests the engine threads publish see a poke's catch-up of one
        // engine; the partner is revisited at the same cycle, so equal states stay equal digests.
        Cartridge cart = rom();
        String[] faults = {
            "reg@70000:A:ppu.mask=" + valueAt(cart, "ppu.mask", 70000),
            "reg@91234:B:cpu.y=" + valueAt(cart, "cpu.y", 91234),
            "reg@120001:A:apu.fcCycle=" + valueAt(cart, "apu.fcCycle", 120001),
            "reg@120001:B:ppu.v=" + valueAt(cart, "ppu.v", 120001),
        };
        ThreadedLockstep s = session(cart, options(6, faults));
        Lockstep.Result r = s.run();
        assertFalse(r.diverged(), () -> r.divergences().get(0).toText());
        assertTrue(r.completed());
        assertEquals(faults.length, s.firedFaults().size(), "every poke fired");
        Lockstep.Result clean = session(cart, options(6)).run();
        assertEquals(clean.finalStateHash(), r.finalStateHash());
        assertEquals(clean.cyclesVerified(), r.cyclesVerified());
    }

    @Test
    void oneShotBitFlipIsFoundAtItsCycleNamedByReplayAndRolledBack() throws Exception {
        Lockstep.Result r = session(rom(), options(6, "ram-bitflip@75000:A:$0077:4")).run();
        assertTrue(r.diverged());
        DivergenceReport d = r.divergences().get(0);
        assertEquals(75000, d.cycle());
        assertFalse(d.reproduced(), "a one-shot fault does not reproduce on a clean re-run");
        assertTrue(d.note().contains("does not reproduce"), d.note());
        assertEquals(List.of("console.ram[0x77]"), d.fields().stream().map(DivergenceReport.FieldDifference::field).toList());
        assertEquals(1, r.rollbacks());
        assertTrue(r.completed());
    }

    @Test
    void registerAndSkippedCycleFaultsAreLocalised() throws Exception {
        DivergenceReport reg = session(rom(), options(5, "reg@70000:B:cpu.y=7")).run().divergences().get(0);
        assertEquals(70000, reg.cycle());
        assertTrue(reg.fields().stream().anyMatch(f -> f.field().equals("cpu.y") && f.b().equals("0x07")), reg.toText());
        DivergenceReport skip = session(rom(), options(5, "skip-cycle@65000:A")).run().divergences().get(0);
        assertEquals(65000, skip.cycle());
        assertTrue(skip.fields().stream().anyMatch(f -> f.field().equals("console.cycle")), skip.toText());
    }

    @Test
    void stalledEngineIsReportedAsAStallNeverAsADivergenceAndTheRunWaitsForIt() throws Exception {
        // The stall falls in frame 9, after the engines' pace has settled (the slow first frames
        // of a cold JIT fade out of it).
        Lockstep.Options o = options(12, "stall@280000:B:3000");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ThreadedLockstep s = new ThreadedLockstep(rom(), o, fence -> new SessionMetrics(registry, o.session, fence));
        Lockstep.Result r = s.run();
        assertFalse(r.diverged(), "a stall shows no state difference");
        assertEquals(0, r.rollbacks(), "nothing is rolled back for a stall");
        assertTrue(r.completed(), r.stopReason());
        // The stall fault's stall (a loaded machine may add stalls of its own: each one a stall too).
        StallReport st = r.stalls().stream().filter(x -> x.afterCycle() == 279999).findFirst().orElseThrow(
                () -> new AssertionError("no stall after cycle 279999: " + r.stalls()));
        assertEquals("engine B", st.who());
        assertTrue(st.resumed(), st.toText());
        assertTrue(st.drift() > o.maxDrift, st.toText());
        assertTrue(st.toText().startsWith("STALL: engine B"), st.toText());
        // Both engines ran every frame and agreed: the same result as a run without the stall.
        Lockstep.Result clean = session(rom(), options(12)).run();
        assertEquals(clean.finalStateHash(), r.finalStateHash());
        assertEquals(clean.cyclesVerified(), r.cyclesVerified());
        String scrape = registry.scrape();
        assertTrue(scrape.contains("lockstep_stalls_total{session=\"lockstep\"} " + r.stalls().size() + ".0"), scrape);
        assertTrue(scrape.contains("lockstep_stalled{session=\"lockstep\"} 0.0"), scrape);
        assertTrue(scrape.contains("lockstep_divergences_total{session=\"lockstep\"} 0.0"), scrape);
    }

    @Test
    void engineSilentPastTheHangTimeEndsTheRunAsStalledAndItsLateWritesAreRefused() throws Exception {
        Lockstep.Options o = options(12, "stall@280000:B:5000");
        o.hangMillis = 1_500;
        ThreadedLockstep s = session(rom(), o);
        long t0 = System.nanoTime();
        Lockstep.Result r = s.run();
        assertFalse(r.diverged());
        assertFalse(r.completed());
        assertTrue(r.stopReason().startsWith("engine B hung"), r.stopReason());
        assertTrue(r.stalls().stream().anyMatch(x -> x.who().equals("engine B") && !x.resumed()), r.stalls().toString());
        // The abandoned engine wakes 5 s after its stall began and tries to write its result: refused.
        long waitUntil = t0 + 15_000_000_000L;
        while (s.fence().rejectedWrites() == 0 && System.nanoTime() < waitUntil) {
            Thread.sleep(50);
        }
        assertTrue(s.fence().rejectedWrites() >= 1, "the hung engine's late write must be refused");
        assertTrue(s.results().stream().noneMatch(l -> l.startsWith("engine B")), s.results().toString());
    }

    @Test
    void stallWatchStartsAtTheFirstHandoffAndAdaptsToThePace() {
        final long ms = 1_000_000L;
        StallWatch w = new StallWatch(100, 0);
        assertFalse(w.newStall(10_000 * ms), "silent before its first handoff: still starting, not watched");
        w.observe(5, 10_000 * ms);
        assertFalse(w.newStall(10_090 * ms));
        assertTrue(w.newStall(10_101 * ms), "the configured time once it handed over");
        assertFalse(w.newStall(10_500 * ms), "one report per silence");
        assertTrue(w.observe(6, 10_600 * ms), "it resumed");
        // A slow pace (a busy machine): 50 ms between handoffs; the stall's own gap does not count.
        w.observe(7, 10_650 * ms);
        assertEquals(StallWatch.PACE_FACTOR * 50 * ms, w.thresholdNanos());
        assertFalse(w.newStall(10_650 * ms + StallWatch.PACE_FACTOR * 50 * ms));
        assertTrue(w.newStall(10_651 * ms + StallWatch.PACE_FACTOR * 50 * ms));
        // A steady quick pace afterwards (a JIT warmed up, the load gone): the slow gaps fade out
        // and the configured time holds again.
        long t = 11_500 * ms;
        for (int i = 0; i < 40; i++) {
            t += ms;
            w.observe(8 + i, t);
        }
        assertEquals(100 * ms, w.thresholdNanos());
        assertTrue(w.newStall(t + 101 * ms));
    }
}
