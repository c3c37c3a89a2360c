package lockstep.nes.desktop.cheats;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.cheat.CheatException;
import org.junit.jupiter.api.Test;

class CheatMenuTest {
    /** A target that keeps the list and records what was asked of it. */
    private static final class Fake implements CheatMenu.Target {
        final CheatList list = new CheatList();
        final List<String> calls = new ArrayList<>();

        @Override
        public CheatList cheatList() {
            return list;
        }

        @Override
        public String addCheat(String code) {
            calls.add("add " + code);
            try {
                return "cheat " + list.add(code).code() + " on";
            } catch (CheatException e) {
                return e.getMessage();
            }
        }

        @Override
        public String setCheat(int index, boolean on) {
            calls.add("set " + index + " " + on);
            try {
                list.set(index, on);
            } catch (CheatException e) {
                return e.getMessage();
            }
            return "ok";
        }
    }

    private static void type(CheatMenu m, String s, Fake t) {
        s.codePoints().forEach(c -> m.typed(c, t));
    }

    @Test
    void typedCodesAreAddedAndSpaceTogglesTheSelectedOne() {
        CheatMenu m = new CheatMenu();
        Fake t = new Fake();
        type(m, "0075:09", t);
        assertEquals("", m.input(), "closed: typing does nothing");
        m.open();
        type(m, "0075:09", t);
        assertEquals("cheat 0075:09 on", m.key(CheatMenu.Key.ENTER, t));
        type(m, "sxiopo", t);
        m.key(CheatMenu.Key.ENTER, t);
        assertEquals(List.of("add 0075:09", "add SXIOPO"), t.calls);
        assertEquals(1, m.selected());
        m.key(CheatMenu.Key.UP, t);
        m.typed(' ', t);
        assertFalse(t.list.entries().get(0).on());
        assertEquals(List.of("CHEATS  type a code, Enter adds  Up/Down Space on/off  Esc closes",
                "> [off] 0075:09", "  [on]  SXIOPO", "add: _"), m.lines(t.list));
        m.key(CheatMenu.Key.ESCAPE, t);
        assertFalse(m.isOpen());
    }

    @Test
    void aBadCodeStaysToBeCorrected() {
        CheatMenu m = new CheatMenu();
        Fake t = new Fake();
        m.open();
        type(m, "12345:01", t);
        assertTrue(m.key(CheatMenu.Key.ENTER, t).contains("12345:01"));
        assertEquals("12345:01", m.input());
        m.key(CheatMenu.Key.BACKSPACE, t);
        assertEquals("12345:0", m.input());
        assertTrue(t.list.entries().isEmpty());
    }
}
