package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateDiff;
import org.junit.jupiter.api.Test;

/**
 * Power is power: a console power-cycled in the middle of a game holds exactly the state of a
 * console built fresh (every described field), so a movie's power command and the desktop's power
 * key leave nothing of the previous run behind.
 */
class PowerCycleTest {

    @Test
    void powerCycledConsoleEqualsAFreshOne() throws Exception {
        Console played = Console.create(DemoRom.cartridge());
        for (int i = 0; i < 90; i++) {
            played.runFrame();
        }
        for (int i = 0; i < 1234; i++) {
            played.runCycle(); // stop mid-frame, mid-instruction
        }
        played.power();
        Console fresh = Console.create(DemoRom.cartridge());

        List<String> differences = StateDiff.diff(Describer.describe(fresh), Describer.describe(played));
        assertEquals(List.of(), differences, "fields a power cycle leaves behind");

        for (int i = 0; i < 30; i++) {
            played.runFrame();
            fresh.runFrame();
        }
        assertEquals(List.of(), StateDiff.diff(Describer.describe(fresh), Describer.describe(played)),
                "30 frames after power");
    }
}
