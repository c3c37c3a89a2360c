package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

/**
 * A lockstep run from a given snapshot ({@link Lockstep.Options#start}): both engines start in
 * that state, the input's frame 0 is the snapshot's frame, and a fault after it is located at
 * its cycle, as netplay's localisation of a desync needs.
 */
class LockstepStartTest {
    @Test
    void bothEnginesStartFromTheSnapshot() throws Exception {
        Cartridge cart = DemoRom.cartridge();
        Console c = Console.create(cart);
        for (int f = 0; f < 30; f++) {
            c.setButtons(0, f % 7);
            c.runFrame();
        }
        Snapshots s = new Snapshots(c);
        byte[] start = s.save();
        long startCycle = c.cycles();
        for (int f = 0; f < 10; f++) {
            c.setButtons(0, 0x10);
            c.runFrame();
        }
        Lockstep.Options o = new Lockstep.Options();
        o.frames = 10;
        o.start = start;
        o.input = (frame, console) -> console.setButtons(0, 0x10);
        Lockstep.Result r = new Lockstep(cart, o, fence -> new SessionMetrics(new SimpleMeterRegistry(), "t", fence)).run();
        assertFalse(r.diverged());
        assertEquals(s.stateHash(), r.finalStateHash(), "ten frames from the snapshot, as the engine ran them");

        Lockstep.Options f = new Lockstep.Options();
        f.frames = 10;
        f.start = start;
        f.rollback = Lockstep.Rollback.OFF;
        f.faults = List.of(FaultSpec.parse("reg@" + (startCycle + 5000) + ":B:cpu.x=$5A"));
        Lockstep.Result fr = new Lockstep(cart, f, fence -> new SessionMetrics(new SimpleMeterRegistry(), "t", fence)).run();
        assertTrue(fr.diverged());
        assertEquals(startCycle + 5000, fr.divergences().get(0).cycle());
        assertEquals(30, fr.divergences().get(0).frame());
    }
}
