package lockstep.nes.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;

/** A debugger's PPU peek changes nothing on any board, and reads what the PPU reads. */
class PpuPeekTest {
    @Test
    void peekingThePpuSpaceChangesNothingOnAnyBoard() {
        List<Console> consoles = EveryBoard.consoles();
        assertFalse(consoles.isEmpty());
        for (Console c : consoles) {
            for (int i = 0; i < 20_000; i++) {
                c.runCycle();
            }
            long before = new CycleDigest(c).digest();
            for (int addr = 0; addr < 0x3000; addr++) {
                c.mapper().ppuPeek(addr);
            }
            String board = c.cartridge().name();
            assertEquals(before, new CycleDigest(c).digest(), board);
        }
    }

    @Test
    void aPeekReadsWhatAReadReadsOnBoardsWithoutBusHooks() {
        for (Console c : EveryBoard.consoles()) {
            if (c.mapper().direct() == null) {
                continue;
            }
            for (int addr = 0; addr < 0x3000; addr += 7) {
                assertEquals(c.mapper().ppuRead(addr), c.mapper().ppuPeek(addr), c.cartridge().name());
            }
        }
    }
}
