package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A busy machine is not a divergence: runs beside a {@link CpuHog} that wants every core, with
 * the default stall time (1 s). Clean runs of high-hopes (a ROM without spin loops, every cycle
 * run) in threads and processes modes find no divergence and roll nothing back, whatever stalls
 * the load causes; the seeded fault campaign is reported fault by fault at its cycles and fields
 * as on an idle machine.
 */
class LoadedMachineTest {
    /** Frames of the clean runs: 3,000 (50 s of play), long enough for the load to cause stalls. */
    static final int FRAMES = 3_000;

    enum Mode { THREADS, PROCESSES }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCleanRunBesideACpuHogFindsNoDivergence(Mode mode) throws Exception {
        byte[] image = java.nio.file.Files.readAllBytes(TestRoms.require("other/high-hopes.nes"));
        Cartridge cart = Cartridge.load(TestRoms.require("other/high-hopes.nes"));
        Lockstep.Options o = new Lockstep.Options();
        o.romName = "high-hopes.nes";
        o.frames = FRAMES;
        o.check = Lockstep.Check.CHAINED;
        HostSettings h = ProcessLockstepTest.hosts();
        h.romImage = image;
        h.region = cart.region();
        Lockstep.Result r;
        try (CpuHog hog = CpuHog.start()) {
            r = VerifySession.create(mode == Mode.THREADS ? VerifySession.Mode.THREADS : VerifySession.Mode.PROCESSES,
                    cart, o, h, fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                            o.session, fence)).run();
        }
        assertTrue(r.divergences().isEmpty(), () -> r.divergences().get(0).toText());
        assertEquals(0, r.rollbacks());
        assertTrue(r.completed(), r.stopReason());
        assertEquals(FRAMES, r.frames());
        for (StallReport s : r.stalls()) {
            assertTrue(s.resumed(), s.toText());
        }
    }

    @ParameterizedTest
    @EnumSource(value = FaultCampaignTest.Run.class, names = {"THREADS_CHAINED", "PROCESSES_CHAINED"})
    void theFaultCampaignBesideACpuHogIsReportedFaultByFault(FaultCampaignTest.Run run) throws Exception {
        try (CpuHog hog = CpuHog.start()) {
            FaultCampaignTest.campaign(run, 1_000);
        }
    }
}
