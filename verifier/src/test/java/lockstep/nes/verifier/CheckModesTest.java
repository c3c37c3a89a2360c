package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.Field;
import java.util.List;
import java.util.function.Consumer;
import lockstep.nes.core.Console;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cpu.Cpu;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What each check sees of a CPU-internal difference that heals before any bus access shows it:
 * engine B's Z flag differs after a cycle just before an {@code LDA #imm}, as in an engine whose
 * ALU computed Z otherwise in the instruction before; the LDA's opcode and operand fetches do
 * not depend on Z, and its last cycle sets Z from the operand in both. {@code --check
 * every-cycle} reports it at that cycle, field {@code cpu.p}; the chain folds only the bus
 * accesses, the counted parts and the representations at the frame's ends, so {@code --check
 * chained} does not see it (as the README says).
 */
class CheckModesTest {
    enum Mode { SAME_THREAD, THREADS }

    /** The cycle after which the CPU is about to fetch an LDA #imm (frame 8 on), and the console there. */
    static long beforeLdaImmediate(Cartridge cart) throws Exception {
        Console c = Console.create(cart);
        for (int i = 0; i < 8; i++) {
            c.runFrame();
        }
        while (true) {
            c.runCycle();
            if (c.cpu().atInstructionStart() && !c.dma().wantsReadCycle() && c.peek(c.cpu().pc()) == 0xA9) {
                return c.cycles();
            }
        }
    }

    /** Flips Z in the CPU's P register directly (no catch-up, no counted change: the engine's own doing). */
    static final Consumer<Console> FLIP_Z = c -> {
        try {
            Field p = Cpu.class.getDeclaredField("p");
            p.setAccessible(true);
            p.setInt(c.cpu(), p.getInt(c.cpu()) ^ 0x02);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    };

    private static Lockstep.Result run(Mode mode, Lockstep.Check check, Cartridge cart, long cycle) throws Exception {
        Lockstep.Options o = new Lockstep.Options();
        o.frames = 12;
        o.checkpointEvery = 2;
        o.rollback = Lockstep.Rollback.OFF;
        o.check = check;
        java.util.function.Function<EpochFence, SessionMetrics> metrics =
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence);
        if (mode == Mode.SAME_THREAD) {
            Lockstep l = new Lockstep(cart, o, metrics);
            l.plant(1, cycle, FLIP_Z);
            return l.run();
        }
        ThreadedLockstep t = new ThreadedLockstep(cart, o, metrics);
        t.plant(1, cycle, FLIP_Z);
        return t.run();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCpuFlagThatHealsBeforeAnyBusAccessIsFoundByEveryCycleAtItsCycleOnly(Mode mode) throws Exception {
        Cartridge cart = Cartridge.load(TestRoms.require("spritecans-2011/spritecans.nes"));
        long cycle = beforeLdaImmediate(cart);

        Lockstep.Result strict = run(mode, Lockstep.Check.EVERY_CYCLE, cart, cycle);
        assertTrue(strict.diverged(), "every-cycle sees it");
        DivergenceReport d = strict.divergences().get(0);
        assertEquals(cycle, d.cycle(), d.toText());
        assertEquals(List.of("cpu.p"), d.fields().stream().map(DivergenceReport.FieldDifference::field).toList());
        assertTrue(d.reproduced(), "an engine's own difference reproduces on a re-run: " + d.note());

        Lockstep.Result chained = run(mode, Lockstep.Check.CHAINED, cart, cycle);
        assertFalse(chained.diverged(), () -> "the chain does not see a difference no access shows: "
                + chained.divergences().get(0).toText());
        assertTrue(chained.completed());
    }
}
