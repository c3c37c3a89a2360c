package lockstep.nes.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.Test;

class TraceRingTest {
    private static Console demo() throws Exception {
        return Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
    }

    @Test
    void keepsTheLastInstructionsOfACycleByCycleRunInOrder() throws Exception {
        Console traced = demo();
        List<String> all = new ArrayList<>();
        new Tracer(traced, c -> { }).trace(500, l -> all.add(l.nestest()));

        Console stepped = demo();
        TraceRing ring = new TraceRing(32);
        while (stepped.cycles() < traced.cycles()) {
            stepped.runCycle();
            ring.observe(stepped);
        }
        List<String> last = ring.lines().stream().map(TraceLine::nestest).toList();
        assertEquals(32, last.size());
        // The ring's newest line is the instruction about to run where the traced run stopped.
        List<String> expected = new ArrayList<>(all.subList(all.size() - 31, all.size()));
        expected.add(TraceLine.of(traced).nestest());
        assertEquals(expected, last);
    }

    @Test
    void aPairMarksItsFirstDifferingLine() {
        TracePair same = new TracePair(List.of("x", "y"), List.of("x", "y"));
        assertEquals(-1, same.firstDifference());
        TracePair pair = new TracePair(List.of("x", "y", "z"), List.of("x", "Y", "Z"));
        assertEquals(1, pair.firstDifference());
        String text = pair.toText("");
        assertTrue(text.startsWith("  A x\n> A y\n> B Y\n! A z\n! B Z\n"), text);
    }
}
