package lockstep.nes.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;

class TracerTest {
    @Test
    void nestestFromC000MatchesTheGoldenLogLineForLine() throws Exception {
        Path rom = TestRoms.require("other/nestest.nes");
        List<String> golden = Files.readAllLines(rom.resolveSibling("nestest.log"));
        Console console = Console.create(Cartridge.load(rom));
        Tracer tracer = new Tracer(console, c -> { });
        tracer.startAt(0xC000);
        List<String> lines = new ArrayList<>();
        tracer.trace(golden.size(), line -> lines.add(line.nestest()));
        for (int i = 0; i < golden.size(); i++) {
            assertEquals(golden.get(i), lines.get(i), "line " + (i + 1));
        }
    }

    @Test
    void tracingChangesNothing() throws Exception {
        Cartridge cart = Cartridge.load(TestRoms.require("other/nestest.nes"));
        Console traced = Console.create(cart);
        Console plain = Console.create(cart);
        new Tracer(traced, c -> { }).trace(20_000, line -> { });
        while (plain.cycles() < traced.cycles()) {
            plain.runInstruction();
        }
        assertEquals(traced.cycles(), plain.cycles());
        assertEquals(new CycleDigest(plain).digest(), new CycleDigest(traced).digest());
    }

    @Test
    void marksUndocumentedOpcodesAndShowsRegistersAsFF() throws Exception {
        Path rom = TestRoms.require("other/nestest.nes");
        Console console = Console.create(Cartridge.load(rom));
        Tracer tracer = new Tracer(console, c -> { });
        tracer.startAt(0xC000);
        List<TraceLine> lines = new ArrayList<>();
        tracer.trace(8991, lines::add);
        assertTrue(lines.stream().anyMatch(l -> !l.official() && l.mnemonic().equals("LAX")));
        assertTrue(lines.stream().filter(l -> l.mnemonic().equals("NOP") && l.bytes()[0] == 0xEA)
                .allMatch(TraceLine::official));
        assertFalse(lines.stream().anyMatch(l -> l.nestest().contains("NOP A")));
    }
}
