package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.desktop.cheats.CheatList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The desktop cheat list: what is added, enabled and disabled reaches the engines and the file. */
class SessionCheatsTest {
    @TempDir
    Path dir;

    private Session session() throws Exception {
        AppDirs dirs = new AppDirs(dir.resolve("config"), dir.resolve("data"));
        return Session.open(DemoRom.cartridge(), null, dirs, new Osd(), List.of());
    }

    private static void play(Session s, int frames) {
        for (int i = 0; i < frames; i++) {
            s.runFrame(i % 16 < 8 ? Controllers.RIGHT | Controllers.A : Controllers.START, 0);
        }
    }

    @Test
    void addedEnabledAndDisabledCheatsReachBothEnginesInLockstep() throws Exception {
        Session s = session();
        assertTrue(s.act(Action.LOCKSTEP).startsWith("lockstep on"));
        play(s, 5);
        assertEquals("cheat 0002:07 on", s.addCheat("0002:07"));
        assertEquals(List.of(Cheat.parse("0002:07")), s.console().cheats());
        assertEquals(s.console().cheats(), s.lockstep().second().cheats());
        assertEquals(7, s.console().peek(0x0002));
        assertEquals(7, s.lockstep().second().peek(0x0002));
        play(s, 10);
        assertFalse(s.lockstep().diverged(), "both engines run the same cheats");
        assertEquals("cheat 0002:07 off", s.setCheat(0, false));
        assertTrue(s.console().cheats().isEmpty());
        assertTrue(s.lockstep().second().cheats().isEmpty());
        play(s, 10);
        assertFalse(s.lockstep().diverged());
        assertEquals("cheat 0002:07 on", s.setCheat(0, true));
        assertEquals(s.console().cheats(), s.lockstep().second().cheats());
        play(s, 10);
        assertFalse(s.lockstep().diverged());
    }

    @Test
    void theListIsSavedPerRomAndPutInEffectNextTime() throws Exception {
        Session s = session();
        s.addCheat("0002:07");
        s.addCheat("0003:01");
        s.setCheat(1, false);
        Path f = CheatList.fileFor(dir.resolve("config"), s.romName());
        assertEquals("on 0002:07\noff 0003:01\n", Files.readString(f));
        Session again = session();
        assertEquals(List.of(Cheat.parse("0002:07")), again.console().cheats());
        assertEquals(2, again.cheatList().entries().size());
    }

    @Test
    void badInputIsOneLine() throws Exception {
        Session s = session();
        String msg = s.addCheat("XYZ");
        assertTrue(msg.startsWith("cheat 'XYZ'"), msg);
        assertEquals(msg, s.osd().last());
        assertEquals("no cheat 3 (the list has 0)", s.setCheat(2, true));
        Files.createDirectories(dir.resolve("config/cheats"));
        Files.writeString(CheatList.fileFor(dir.resolve("config"), s.romName()), "yes 0002:07\n");
        Session bad = session();
        assertTrue(bad.osd().last().endsWith(": line 1: starts with 'yes', not 'on' or 'off'"), bad.osd().last());
        assertTrue(bad.console().cheats().isEmpty());
    }
}
