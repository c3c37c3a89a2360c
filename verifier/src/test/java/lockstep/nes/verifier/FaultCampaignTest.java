package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A seeded fault campaign in every mode and check (and, in {@link LoadedMachineTest}, beside a
 * process that wants every core): 32 faults over 13 described fields (CPU and
 * PPU registers, the open bus, RAM and nametable RAM bit flips), on either engine, at random
 * cycles none of which is a frame's first or last (so each fires inside a stretch, never where
 * one ends). Every one is reported at its exact cycle with its field alone, and rolled back.
 */
class FaultCampaignTest {
    enum Run { SAME_THREAD_CHAINED, SAME_THREAD_EVERY_CYCLE, THREADS_CHAINED, THREADS_EVERY_CYCLE, PROCESSES_CHAINED, PROCESSES_EVERY_CYCLE }

    static final int FRAMES = 36;
    static final int FAULTS = 32;
    /** Registers set to their clean-run value with bit 0 flipped (every one takes it). */
    static final List<String> REGISTERS = List.of("cpu.a", "cpu.x", "cpu.y", "cpu.s", "cpu.p", "ppu.v", "ppu.t",
            "ppu.mask", "ppu.ctrl", "ppu.oamAddr", "console.openBus");

    record Planned(FaultSpec spec, String field) {
    }

    /**
     * The campaign: seeded cycles in frames 2 to {@link #FRAMES} - 1, at least 4 cycles from a
     * frame boundary and 2,000 apart, each fault's value taken from a clean run.
     */
    static List<Planned> campaign(Cartridge cart, long seed) throws Exception {
        Random random = new Random(seed);
        Console c = Console.create(cart);
        List<Long> frameEnds = new ArrayList<>();
        for (int f = 0; f < FRAMES; f++) {
            c.runFrame();
            frameEnds.add(c.cycles());
        }
        TreeMap<Long, Integer> cycles = new TreeMap<>();
        while (cycles.size() < FAULTS) {
            int frame = 2 + random.nextInt(FRAMES - 4);
            long from = frameEnds.get(frame - 1) + 4;
            long to = frameEnds.get(frame) - 4;
            long cycle = from + (long) (random.nextDouble() * (to - from));
            Long below = cycles.floorKey(cycle);
            Long above = cycles.ceilingKey(cycle);
            if ((below == null || cycle - below > 2000) && (above == null || above - cycle > 2000)) {
                cycles.put(cycle, cycles.size());
            }
        }
        // Clean-run values of the registers at each cycle (after it completes).
        Map<Long, Map<String, Long>> values = new HashMap<>();
        Console clean = Console.create(cart);
        for (long cycle : cycles.keySet()) {
            while (clean.cycles() < cycle) {
                clean.runCycle();
            }
            Map<String, Long> v = new HashMap<>();
            for (StateEntry e : Describer.describe(clean)) {
                v.put(e.path(), e.value());
            }
            values.put(cycle, v);
        }
        List<Planned> out = new ArrayList<>();
        int i = 0;
        for (long cycle : cycles.keySet()) {
            String engine = random.nextBoolean() ? "A" : "B";
            int kind = i % 13;
            if (kind < REGISTERS.size()) {
                String field = REGISTERS.get(kind);
                long value = values.get(cycle).get(field) ^ 1;
                out.add(new Planned(FaultSpec.parse("reg@" + cycle + ":" + engine + ":" + field + "=" + value), field));
            } else if (kind == REGISTERS.size()) {
                int address = random.nextInt(0x800);
                out.add(new Planned(FaultSpec.parse(String.format("ram-bitflip@%d:%s:$%04X:%d", cycle, engine, address,
                        random.nextInt(8))), String.format("console.ram[0x%x]", address)));
            } else {
                int address = random.nextInt(0x800);
                out.add(new Planned(FaultSpec.parse(String.format("vram-bitflip@%d:%s:$%04X:%d", cycle, engine, address,
                        random.nextInt(8))), String.format("mapper.ciram[0x%x]", address)));
            }
            i++;
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Run.class)
    void everyFaultIsReportedAtItsExactCycleAndField(Run run) throws Exception {
        campaign(run, 10_000);
    }

    /**
     * Runs the campaign in {@code run}'s mode and check with stall time {@code stallMillis} and
     * asserts every fault reported at its exact cycle with its field alone, and rolled back.
     */
    static void campaign(Run run, long stallMillis) throws Exception {
        Cartridge cart = DemoRom.cartridge();
        List<Planned> planned = campaign(cart, 0xFA017L);
        Set<String> fields = new HashSet<>();
        for (Planned p : planned) {
            fields.add(p.field().replaceAll("\\[.*", ""));
        }
        assertTrue(planned.size() >= 30 && fields.size() >= 10, fields.toString());

        Lockstep.Options o = new Lockstep.Options();
        o.romName = DemoRom.NAME;
        o.frames = FRAMES;
        o.checkpointEvery = 1;
        o.backoffBaseMillis = 1;
        o.backoffCapMillis = 2;
        o.maxRollbacks = FAULTS + 1;
        o.stallMillis = stallMillis;
        o.faults = planned.stream().map(Planned::spec).toList();
        o.check = run.name().endsWith("EVERY_CYCLE") ? Lockstep.Check.EVERY_CYCLE : Lockstep.Check.CHAINED;
        VerifySession.Mode mode = switch (run) {
            case SAME_THREAD_CHAINED, SAME_THREAD_EVERY_CYCLE -> VerifySession.Mode.SAME_THREAD;
            case THREADS_CHAINED, THREADS_EVERY_CYCLE -> VerifySession.Mode.THREADS;
            case PROCESSES_CHAINED, PROCESSES_EVERY_CYCLE -> VerifySession.Mode.PROCESSES;
        };
        Lockstep.Result r = VerifySession.create(mode, cart, o, ProcessLockstepTest.hosts(),
                fence -> new SessionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), o.session, fence)).run();
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < Math.max(planned.size(), r.divergences().size()); i++) {
            Planned p = i < planned.size() ? planned.get(i) : null;
            DivergenceReport d = i < r.divergences().size() ? r.divergences().get(i) : null;
            List<String> got = d == null ? List.of()
                    : d.fields().stream().map(DivergenceReport.FieldDifference::field).toList();
            if (p == null || d == null || d.cycle() != p.spec().cycle() || !got.equals(List.of(p.field()))) {
                wrong.add((p == null ? "-" : p.spec().toString()) + " -> "
                        + (d == null ? "not reported" : "cycle " + d.cycle() + " " + got));
            }
        }
        assertTrue(wrong.isEmpty(), run + ": " + wrong);
        assertEquals(FAULTS, r.rollbacks());
        assertTrue(r.completed(), r.stopReason());
    }
}
