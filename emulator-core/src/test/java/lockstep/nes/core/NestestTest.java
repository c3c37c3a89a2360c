package lockstep.nes.core;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

class NestestTest {
    @Test
    void matchesEveryLineOfTheGoldenLog() throws Exception {
        Path rom = TestRoms.require("other/nestest.nes");
        Path log = TestRoms.require("other/nestest.log");
        Nestest.Result r = Nestest.run(Cartridge.load(rom), Files.readAllLines(log));
        assertNull(r.expected(), () -> "first mismatch at line " + (r.matched() + 1)
                + "\n  expected: " + r.expected() + "\n  actual:   " + r.actual());
        assertEquals(8991, r.matched());
    }

    @Test
    void reportsTheFirstMismatchingLine() throws Exception {
        Path rom = TestRoms.require("other/nestest.nes");
        List<String> log = new ArrayList<>(Files.readAllLines(rom.resolveSibling("nestest.log")));
        // Corrupt the A register of line 100: the run must stop there and show both lines.
        String line = log.get(99);
        int i = line.indexOf("A:");
        String a = line.substring(i + 2, i + 4);
        log.set(99, line.substring(0, i + 2) + (a.equals("00") ? "01" : "00") + line.substring(i + 4));
        Nestest.Result r = Nestest.run(Cartridge.load(rom), log);
        assertEquals(99, r.matched());
        assertEquals(8991, r.total());
    }
}
