package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

/** A rollback re-simulates up to the present: the frames already shown are not played again later. */
class RollbackEngineTest {

    @Test
    void aWrongPredictionIsReplayedUpToThePresentInOneRollback() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        List<Integer> depths = new ArrayList<>();
        RollbackEngine e = new RollbackEngine(cart, 0, 0, List.of(), (depth, nanos) -> depths.add(depth));
        for (int f = 0; f < 6; f++) {
            e.addLocal(0x08);
            e.advance(); // the remote's input is predicted: no buttons
        }
        e.addRemote(0, 0);
        e.addRemote(1, 0);
        e.addRemote(2, 0x40); // frame 2 ran with a wrong prediction
        e.settle();
        assertEquals(6, e.present(), "the present after a rollback");
        assertEquals(List.of(4), depths);
        assertEquals(4, e.resimulated());
        // The state is that of frames 0-5 with the remote's known inputs and its last held after.
        Console c = Console.create(cart);
        int[] remote = {0, 0, 0x40, 0x40, 0x40, 0x40};
        for (int f = 0; f < 6; f++) {
            c.setButtons(0, 0x08);
            c.setButtons(1, remote[f]);
            c.runFrame();
        }
        assertEquals(new Snapshots(c).stateHash(), e.stateHash());
    }
}
