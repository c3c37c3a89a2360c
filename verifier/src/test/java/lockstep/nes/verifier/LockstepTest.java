package lockstep.nes.verifier;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import lockstep.nes.core.Console;
import lockstep.nes.core.PlantedDifference;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.TransientPatch;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class LockstepTest {
    @TempDir
    Path tmp;

    private static Cartridge rom() throws Exception {
        return Cartridge.load(TestRoms.require("spritecans-2011/spritecans.nes"));
    }

    private Lockstep.Options options(int frames, String... faults) {
        Lockstep.Options o = new Lockstep.Options();
        o.frames = frames;
        o.checkpointEvery = 10;
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 5;
        o.faults = java.util.Arrays.stream(faults).map(FaultSpec::parse).toList();
        return o;
    }

    private static java.util.function.Function<EpochFence, SessionMetrics> metrics(Lockstep.Options o) {
        return fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence);
    }

    private static Lockstep.Result run(Cartridge cart, Lockstep.Options o) throws Exception {
        return new Lockstep(cart, o, metrics(o)).run();
    }

    @Test
    void identicalEnginesNeverDivergeAndEndInTheSingleEngineState() throws Exception {
        Cartridge cart = rom();
        Lockstep.Result r = run(cart, options(30));
        assertFalse(r.diverged());
        assertTrue(r.completed());
        assertEquals(30, r.frames());
        Console solo = Console.create(cart);
        for (int i = 0; i < 30; i++) {
            solo.runFrame();
        }
        assertEquals(new Snapshots(solo).stateHash(), r.finalStateHash());
        assertEquals(solo.cycles() + 1, r.cyclesVerified());
    }

    @Test
    void ramBitFlipIsLocalisedToItsCycleAndByteThenRolledBack() throws Exception {
        Lockstep.Result r = run(rom(), options(30, "ram-bitflip@200000:B:$0123:2"));
        assertTrue(r.diverged());
        DivergenceReport d = r.divergences().get(0);
        assertEquals(200000, d.cycle());
        assertEquals(List.of("console.ram[0x123]"), fieldNames(d));
        assertEquals(1, r.rollbacks());
        assertTrue(r.completed(), "one-shot fault: the re-run from the checkpoint is clean");
        assertEquals(1, r.divergences().size());
    }

    @Test
    void registerWriteIsLocalisedToItsField() throws Exception {
        Lockstep.Result r = run(rom(), options(20, "reg@123456:A:cpu.x=$99"));
        DivergenceReport d = r.divergences().get(0);
        assertEquals(123456, d.cycle());
        assertTrue(fieldNames(d).contains("cpu.x"), fieldNames(d).toString());
        assertEquals("0x99", d.fields().stream().filter(f -> f.field().equals("cpu.x")).findFirst().get().a());
    }

    @Test
    void vramBitFlipIsLocalisedToCiram() throws Exception {
        Lockstep.Result r = run(rom(), options(20, "vram-bitflip@150000:A:$0400:7"));
        DivergenceReport d = r.divergences().get(0);
        assertEquals(150000, d.cycle());
        assertEquals(List.of("mapper.ciram[0x400]"), fieldNames(d));
    }

    @Test
    void skippedCycleIsLocalisedToTheClock() throws Exception {
        Lockstep.Result r = run(rom(), options(20, "skip-cycle@99999:B"));
        DivergenceReport d = r.divergences().get(0);
        assertEquals(99999, d.cycle());
        assertTrue(fieldNames(d).contains("console.cycle"), fieldNames(d).toString());
    }

    @Test
    void onAlertHaltsWithTheFlagUpUntilTheWebhookOrdersTheRollback() throws Exception {
        Lockstep.Options o = options(20, "ram-bitflip@100000:A:$10:0");
        o.rollback = Lockstep.Rollback.ON_ALERT;
        o.alertWaitMillis = 30_000;
        AtomicReference<SessionMetrics> metrics = new AtomicReference<>();
        Lockstep l = new Lockstep(rom(), o, fence -> {
            metrics.set(metrics(o).apply(fence));
            return metrics.get();
        });
        SessionMetrics m = metrics.get();
        assertFalse(l.rollbackOnAlert().done(), "nothing to roll back before a divergence");
        AtomicReference<Lockstep.Result> result = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(l.run());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        long deadline = System.currentTimeMillis() + 60_000;
        while (!m.diverged() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(m.diverged(), "flag raised");
        Thread.sleep(200);
        assertTrue(t.isAlive(), "halted, waiting for the alert");
        assertEquals(0.0, m.rollbackCount());
        AlertWebhook.Outcome outcome = l.rollbackOnAlert();
        assertTrue(outcome.done(), outcome.message());
        t.join(60_000);
        assertFalse(m.diverged());
        assertEquals(1, result.get().rollbacks());
        assertTrue(result.get().completed());
        assertEquals(2, l.fence().current(), "the rollback began a new epoch");
    }

    private static List<String> fieldNames(DivergenceReport d) {
        return d.fields().stream().map(DivergenceReport.FieldDifference::field).toList();
    }

    @Test
    void deadLetterReceivesTheReportAndFramesWhileTheFlagIsUp() throws Exception {
        Lockstep.Options o = options(20, "ram-bitflip@100000:A:$10:0");
        Lockstep l = new Lockstep(rom(), o, metrics(o));
        o.deadLetter = new DeadLetter(tmp.resolve("dl"), l.fence());
        l.run();
        assertTrue(Files.readString(tmp.resolve("dl/dead-letter.jsonl")).contains("\"cycle\":100000"));
        try (var files = Files.list(tmp.resolve("dl"))) {
            assertEquals(2, files.filter(p -> p.toString().endsWith(".png")).count());
        }
        // The chained stretches draw no picture; the frame re-run that located the divergence
        // drew the one the dead letter shows: engine B's (not faulted) is a console's own picture
        // on every line drawn before the divergence.
        Console reference = Console.create(rom());
        while (reference.cycles() < 100000) {
            reference.runCycle();
        }
        final int lines = reference.ppu().scanline();
        assertTrue(lines > 16 && lines < 240, "the divergence falls inside the picture (line " + lines + ")");
        java.awt.image.BufferedImage expected = FrameImage.toImage(reference.ppu().frame(), Palette.ntsc());
        java.awt.image.BufferedImage shown = javax.imageio.ImageIO.read(tmp.resolve("dl/frame-3-cycle-100000-B.png").toFile());
        for (int y = 0; y < lines; y++) {
            for (int x = 0; x < 256; x++) {
                assertEquals(expected.getRGB(x, y), shown.getRGB(x, y), "dead letter picture at " + x + "," + y);
            }
        }
    }

    /**
     * A change that no path counts (here a field set by reflection, which the per-cycle check
     * cannot know about) is still reported within its frame: at the next counted change or, if
     * none came, by the digests compared at the end of the frame.
     */
    @Test
    void aChangeNoPathCountsIsStillFoundWithinItsFrame() throws Exception {
        java.lang.reflect.Field page = lockstep.nes.core.Dma.class.getDeclaredField("oamPage");
        page.setAccessible(true);
        java.lang.reflect.Field stale = lockstep.nes.core.Dma.class.getDeclaredField("digestStale");
        stale.setAccessible(true);
        long[] frameStart = {-1, -1};
        int[] calls = {0};
        Lockstep.Options o = options(12);
        o.rollback = Lockstep.Rollback.OFF;
        o.input = (frame, console) -> {
            if (frame == 7 && calls[0]++ == 1) { // engine B's turn (A is fed first)
                try {
                    page.setInt(console.dma(), page.getInt(console.dma()) ^ 0x20);
                    stale.setBoolean(console.dma(), true);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                frameStart[0] = console.cycles();
                frameStart[1] = console.frame();
            }
        };
        Lockstep.Result r = run(rom(), o);
        assertTrue(r.diverged(), "the hidden change was found");
        DivergenceReport d = r.divergences().get(0);
        assertTrue(d.cycle() >= frameStart[0] && d.frame() <= frameStart[1] + 1,
                "found in the frame it was made in: cycle " + d.cycle() + ", frame " + d.frame());
        assertTrue(fieldNames(d).contains("dma.oamPage"), fieldNames(d).toString());
    }

    /**
     * Engine B reads its program from a copy with one opcode changed, as an engine that
     * misbehaves would: the difference shows up inside a whole instruction (the fetch reads
     * another value), and the session re-runs that frame cycle by cycle from its start to report
     * the first differing cycle with both engines standing there: the same report as stepping
     * cycle by cycle all along.
     */
    @Test
    void aDifferenceFoundOverAWholeInstructionIsReportedAtItsFirstCycle() throws Exception {
        Cartridge cart = rom();
        // An opcode the program runs in its main loop, some frames in.
        Console solo = Console.create(cart);
        for (int i = 0; i < 8; i++) {
            solo.runFrame();
        }
        for (int i = 0; i < 5000; i++) {
            solo.runCycle();
        }
        solo.runInstruction();
        int pc = solo.cpu().instructionPc();
        java.lang.reflect.Field prgField = lockstep.nes.core.cart.Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);

        DivergenceReport[] reports = new DivergenceReport[2];
        int[] relocations = new int[2];
        for (int whole = 0; whole < 2; whole++) {
            Lockstep.Options o = options(12);
            o.rollback = Lockstep.Rollback.OFF;
            o.check = whole == 1 ? Lockstep.Check.CHAINED : Lockstep.Check.EVERY_CYCLE;
            Lockstep session = new Lockstep(cart, o, metrics(o));
            lockstep.nes.core.cart.Mapper boardB = session.engine(1).console.mapper();
            byte[] prg = ((byte[]) prgField.get(boardB)).clone();
            int offset = (pc - 0x8000) % prg.length;
            prg[offset] = (byte) (prg[offset] == (byte) 0xEA ? 0x18 : 0xEA); // NOP (or CLC)
            prgField.set(boardB, prg);
            Lockstep.Result r = session.run();
            assertTrue(r.diverged());
            reports[whole] = r.divergences().get(0);
            relocations[whole] = session.relocations;
        }
        assertEquals(0, relocations[0]);
        assertEquals(1, relocations[1], "found over a whole instruction, then located");
        DivergenceReport d = reports[1];
        assertEquals(reports[0].cycle(), d.cycle());
        assertEquals(reports[0].instructionAddress(), d.instructionAddress());
        assertEquals(fieldNames(reports[0]), fieldNames(d));
        assertTrue(d.reproduced(), d.note());
    }

    /**
     * Engine B reads one immediate operand patched ({@link TransientPatch}): it differs from A
     * for one cycle (the operand read only), or until the program overwrites the RAM byte B
     * stored differently, then the program overwrites what differed and both are equal again before
     * the frame ends, so neither the representations nor the digests at the frame's end show it.
     * The stretch's chain does, and the frame is re-run to report the first differing cycle:
     * the same report as stepping cycle by cycle all along.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aDifferenceThatHealsWithinItsFrameIsReportedAtItsFirstCycle(boolean reachesRam) throws Exception {
        Cartridge cart = rom();
        TransientPatch t = TransientPatch.find(cart, 30, reachesRam);
        DivergenceReport[] reports = new DivergenceReport[2];
        int[] relocations = new int[2];
        for (int whole = 0; whole < 2; whole++) {
            Lockstep.Options o = options(40);
            o.rollback = Lockstep.Rollback.OFF;
            o.check = whole == 1 ? Lockstep.Check.CHAINED : Lockstep.Check.EVERY_CYCLE;
            Lockstep session = new Lockstep(cart, o, metrics(o));
            TransientPatch.patch(session.engine(1).console, t.prgOffset());
            Lockstep.Result r = session.run();
            assertTrue(r.diverged(), "found (mode " + whole + ")");
            reports[whole] = r.divergences().get(0);
            relocations[whole] = session.relocations;
        }
        assertEquals(t.firstCycle(), reports[0].cycle(), "cycle by cycle: at its first cycle");
        assertEquals(0, relocations[0]);
        assertEquals(1, relocations[1], "found by a stretch, then located");
        DivergenceReport d = reports[1];
        assertEquals(reports[0].cycle(), d.cycle());
        assertEquals(reports[0].frame(), d.frame());
        assertEquals(reports[0].instructionAddress(), d.instructionAddress());
        assertEquals(reports[0].fields(), d.fields());
        assertTrue(d.reproduced(), d.note());
    }

    /**
     * The planted differences that only one fold of a stretch's chain can see (a read the
     * stretch runs alone, a DMA cycle's access, the counted parts after the cycles that change
     * them; see {@link PlantedDifference}), each healing within the first frame: stepped cycle
     * by cycle or over stretches (found by the stretch, then located), the session reports the
     * same first cycle, instruction and fields. PARTS_DURING_DMA went unreported over stretches
     * while the chain held the counted parts at instruction boundaries only.
     */
    @ParameterizedTest
    @EnumSource(PlantedDifference.class)
    void aDifferenceOnlyOneFoldOfTheChainSeesIsReportedAtItsFirstCycle(PlantedDifference p) throws Exception {
        Cartridge cart = p.cartridge();
        DivergenceReport[] reports = new DivergenceReport[2];
        int[] relocations = new int[2];
        for (int whole = 0; whole < 2; whole++) {
            Lockstep.Options o = options(2);
            o.rollback = Lockstep.Rollback.OFF;
            o.check = whole == 1 ? Lockstep.Check.CHAINED : Lockstep.Check.EVERY_CYCLE;
            Lockstep session = new Lockstep(cart, o, metrics(o));
            p.plant(session.engine(1).console);
            Lockstep.Result r = session.run();
            assertTrue(r.diverged(), p + " found (mode " + whole + ")");
            reports[whole] = r.divergences().get(0);
            relocations[whole] = session.relocations;
        }
        assertEquals(0, relocations[0]);
        assertEquals(1, relocations[1], "found by a stretch, then located");
        DivergenceReport d = reports[1];
        assertEquals(reports[0].cycle(), d.cycle(), p + ": the first differing cycle");
        assertEquals(reports[0].frame(), d.frame());
        assertEquals(reports[0].instructionAddress(), d.instructionAddress());
        assertEquals(reports[0].fields(), d.fields());
        assertTrue(d.reproduced(), d.note());
        assertEquals("", d.note(), "found by the per-cycle check, not the end-of-frame one");
    }
}
