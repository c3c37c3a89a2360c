package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

class LivePairTest {
    @Test
    void twoEnginesAgreeFrameByFrameFromAMidGameStart() throws Exception {
        Console a = Console.create(DemoRom.cartridge());
        for (int i = 0; i < 30; i++) {
            a.runFrame();
        }
        LivePair pair = new LivePair(a, DemoRom.NAME, List.of());
        long start = a.cycles();
        for (int i = 0; i < 20; i++) {
            assertTrue(pair.runFrame(i % 2 == 0 ? 0x08 : 0, 0x01));
        }
        assertFalse(pair.diverged());
        assertEquals(a.cycles() - start, pair.cyclesVerified());
        assertEquals(0, pair.drift());
        assertEquals(new Snapshots(a).stateHash(), new Snapshots(pair.second()).stateHash());
    }

    @Test
    void aRamBitFlipInBStopsBothAtThatCycleWithAReport() throws Exception {
        Console a = Console.create(DemoRom.cartridge());
        a.runFrame();
        long at = a.cycles() + 5000;
        LivePair pair = new LivePair(a, DemoRom.NAME, List.of(FaultSpec.parse("ram-bitflip@" + at + ":B:$10:3")));
        boolean ok = true;
        for (int i = 0; i < 5 && ok; i++) {
            ok = pair.runFrame(0, 0);
        }
        assertFalse(ok);
        assertTrue(pair.diverged());
        assertEquals(at, a.cycles());
        DivergenceReport r = pair.report();
        assertEquals(at, r.cycle());
        assertTrue(r.toText().contains("console.ram"), r.toText());
        assertFalse(pair.runFrame(0, 0), "stays stopped");
        assertEquals(at, a.cycles());
    }
}
