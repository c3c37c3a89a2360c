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

    /** The CPU's fields its description holds (the poll cache, not state, left out). */
    private static java.util.List<java.lang.reflect.Field> describedFields() {
        java.util.List<java.lang.reflect.Field> out = new java.util.ArrayList<>();
        for (java.lang.reflect.Field f : Cpu.class.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())
                    && !f.isAnnotationPresent(lockstep.nes.state.NotState.class)) {
                f.setAccessible(true);
                out.add(f);
            }
        }
        return out;
    }

    /** A CPU at an opcode fetch at $8010 with every other described field away from its default. */
    private static Cpu everyFieldSet() throws IllegalAccessException {
        Cpu c = new Cpu();
        for (java.lang.reflect.Field f : describedFields()) {
            if (f.getType() == boolean.class) {
                f.setBoolean(c, true);
            } else if (!f.getName().equals("pc")) {
                f.setInt(c, 0x11 + f.getName().length());
            }
        }
        c.pc = 0x8010;
        return c;
    }

    @Test
    void everyDescribedFieldOfTheCpuIsKeptAndCompared() throws Exception {
        // Kept: a CPU whose every field is away from a new CPU's comes round the same.
        Cpu same = everyFieldSet();
        assertEquals(5, seenTwice(same).cameRound(same, 110, 7, 0x80));
        // Compared: a change of any one field between two visits makes the loop untrusted.
        int checked = 0;
        for (java.lang.reflect.Field f : describedFields()) {
            Cpu c = everyFieldSet();
            SpinLoop s = seenTwice(c);
            if (f.getType() == boolean.class) {
                f.setBoolean(c, false);
            } else {
                f.setInt(c, f.getInt(c) + 2); // not one less: a countdown is a change of its own
            }
            assertEquals(0, s.cameRound(c, 110, 7, 0x80), f.getName());
            checked++;
        }
        assertEquals(20, checked, "the CPU's described fields");
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
