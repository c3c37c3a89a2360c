package lockstep.nes.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link SpinLoop}: a loop is trusted only after a whole iteration from a copied state, and only
 * when nothing but the CPU's own counter (or nothing at all) changed in it.
 */
class SpinLoopTest {

    /** A CPU at an opcode fetch at {@code pc} with the given registers. */
    private static Cpu at(int pc, int a, int x, int y) {
        Cpu c = new Cpu();
        c.setRegisters(a, x, y, 0xFD, 0x24);
        c.jump(pc);
        return c;
    }

    /** A loop seen at {@code c}'s head on cycles 100 and 105 (7 disturbances, $80 on the bus); both visits give 0. */
    private static SpinLoop seenTwice(Cpu c) {
        SpinLoop s = new SpinLoop();
        assertEquals(0, s.cameRound(c, 100, 7, 0x80));
        assertEquals(0, s.cameRound(c, 105, 7, 0x80));
        return s;
    }

    @Test
    void theThirdVisitInTheSameStateGivesTheLoopsLength() {
        Cpu c = at(0x8010, 1, 2, 3);
        SpinLoop s = seenTwice(c); // the second visit, after a whole iteration, copies the state
        assertEquals(5, s.cameRound(c, 110, 7, 0x80));
        assertEquals(SpinLoop.SAME, s.change());
        assertEquals(5, s.cameRound(c, 115, 7, 0x80));
    }

    @Test
    void anyDisturbanceOtherHeadOrOtherOpenBusStartsAgain() {
        Cpu c = at(0x8010, 1, 2, 3);
        SpinLoop s = seenTwice(c);
        assertEquals(0, s.cameRound(c, 110, 8, 0x80)); // a write or a register access in between
        s.cameRound(c, 115, 8, 0x80);
        assertEquals(0, s.cameRound(c, 120, 8, 0x81)); // another value on the bus
        s.cameRound(c, 125, 8, 0x81);
        assertEquals(0, s.cameRound(at(0x8020, 1, 2, 3), 130, 8, 0x81)); // another head
        s.cameRound(at(0x8020, 1, 2, 3), 135, 8, 0x81);
        assertEquals(5, s.cameRound(at(0x8020, 1, 2, 3), 140, 8, 0x81));
    }

    @Test
    void aStateThatChangedIsNotTrusted() {
        SpinLoop s = new SpinLoop();
        s.cameRound(at(0x8010, 1, 2, 3), 100, 7, 0x80);
        s.cameRound(at(0x8010, 1, 2, 3), 105, 7, 0x80);
        assertEquals(0, s.cameRound(at(0x8010, 2, 2, 3), 110, 7, 0x80)); // A changed
        assertEquals(SpinLoop.OTHER, s.change());
        Cpu latch = at(0x8010, 2, 2, 3);
        latch.tmp = 0x55; // an internal latch changed
        assertEquals(0, s.cameRound(latch, 115, 7, 0x80));
        assertEquals(0, s.cameRound(at(0x8010, 2, 1, 2), 120, 7, 0x80)); // X and Y both one less
        assertEquals(SpinLoop.OTHER, s.change());
    }

    @Test
    void aCounterOneLessIsACountdown() {
        SpinLoop s = new SpinLoop();
        s.cameRound(at(0x8010, 1, 9, 3), 100, 7, 0xFD);
        s.cameRound(at(0x8010, 1, 8, 3), 105, 7, 0xFD);
        assertEquals(5, s.cameRound(at(0x8010, 1, 7, 3), 110, 7, 0xFD));
        assertEquals(SpinLoop.X_DOWN, s.change());
        assertEquals(5, s.cameRound(at(0x8010, 1, 7, 2), 115, 7, 0xFD));
        assertEquals(SpinLoop.Y_DOWN, s.change());
        assertEquals(0, s.cameRound(at(0x8010, 1, 7, 4), 120, 7, 0xFD)); // one more is not a countdown
        assertEquals(SpinLoop.OTHER, s.change());
    }

    @Test
    void forgettingStartsAgain() {
        Cpu c = at(0x8010, 1, 2, 3);
        SpinLoop s = seenTwice(c);
        s.forget();
        assertEquals(0, s.cameRound(c, 110, 7, 0x80));
        assertEquals(0, s.cameRound(c, 115, 7, 0x80));
        assertEquals(5, s.cameRound(c, 120, 7, 0x80));
    }
}
