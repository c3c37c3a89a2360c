package lockstep.nes.desktop.cheats;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheatListTest {
    @TempDir
    Path dir;

    @Test
    void savedAndLoadedWithWhatIsOnAndOff() throws Exception {
        CheatList l = new CheatList();
        l.add("sxiopo");
        l.add("0075:09");
        l.add("$C123:A9:85");
        l.set(1, false);
        Path f = CheatList.fileFor(dir, "game.nes");
        assertEquals(dir.resolve("cheats").resolve("game.nes.cheats"), f);
        l.save(f);
        assertEquals("on SXIOPO\noff 0075:09\non $C123:A9:85\n", Files.readString(f));
        CheatList back = CheatList.load(f);
        assertEquals(l.entries(), back.entries());
        assertEquals(List.of(Cheat.parse("SXIOPO"), Cheat.parse("$C123:A9:85")), back.enabled());
    }

    @Test
    void noFileIsAnEmptyList() throws Exception {
        assertTrue(CheatList.load(dir.resolve("none.cheats")).entries().isEmpty());
    }

    @Test
    void commentsAndBlankLinesAreSkipped() throws Exception {
        Path f = dir.resolve("a.cheats");
        Files.writeString(f, "# my codes\n\n  on 0075:09  \n");
        assertEquals(List.of(Cheat.parse("0075:09")), CheatList.load(f).enabled());
    }

    private void refused(String text, String reason) throws Exception {
        Path f = dir.resolve("bad.cheats");
        Files.writeString(f, text);
        CheatListException e = assertThrows(CheatListException.class, () -> CheatList.load(f));
        assertTrue(e.getMessage().startsWith(f + ": line "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void aBadFileIsOneLineNamingTheFileAndTheLine() throws Exception {
        refused("on 0075:09\nmaybe 0076:01\n", "line 2: starts with 'maybe', not 'on' or 'off'");
        refused("off\n", "line 1: no code after 'off'");
        refused("on ZZZZ:01\n", "line 1: cheat 'ZZZZ:01'");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 33; i++) {
            many.append("on 00").append(String.format("%02X", i)).append(":01\n");
        }
        refused(many.toString(), "line 33: more than 32 codes on");
    }

    @Test
    void aBadCodeIsNotAdded() {
        CheatList l = new CheatList();
        CheatException e = assertThrows(CheatException.class, () -> l.add("12345:01"));
        assertTrue(e.getMessage().contains("12345:01"), e.getMessage());
        assertTrue(l.entries().isEmpty());
    }
}
