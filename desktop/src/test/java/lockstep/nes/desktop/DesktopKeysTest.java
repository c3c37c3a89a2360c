package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_A;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_BACKSPACE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_C;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_DOWN;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_ENTER;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_ESCAPE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_F7;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_KP_ENTER;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.desktop.cheats.CheatKeys;
import lockstep.nes.desktop.cheats.CheatList;
import lockstep.nes.desktop.nsf.NsfTracks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the window's keys do, without a window: the cheat panel's keys and typing
 * ({@link CheatKeys} over a session), the NSF track keys ({@link NsfTracks}) and the disk key
 * in lockstep mode. The window calls exactly these (DesktopApp's key callbacks).
 */
class DesktopKeysTest {
    @TempDir
    Path dir;

    private AppDirs dirs() {
        return new AppDirs(dir.resolve("config"), dir.resolve("data"));
    }

    private Session session(Cartridge cart) throws Exception {
        return Session.open(cart, null, dirs(), new Osd(), List.of());
    }

    private static void type(CheatKeys keys, String text, Session s) {
        text.codePoints().forEach(c -> keys.typed(c, s));
    }

    @Test
    void theCheatKeyOpensThePanelWhoseKeysAddEnableAndDisableCodes() throws Exception {
        CheatKeys keys = new CheatKeys();
        assertEquals("no game is running", keys.open(null, GLFW_KEY_C));
        assertFalse(keys.isOpen());
        assertFalse(keys.press(GLFW_KEY_ENTER, null), "closed: keys go to the game");

        Session s = session(DemoRom.cartridge());
        assertNull(keys.open(s, GLFW_KEY_C));
        assertTrue(keys.isOpen());
        keys.typed('c', s); // the opening key's own character
        assertEquals("", keys.input(), "the character of the key that opened the panel is dropped");
        type(keys, "0002:07x", s);
        assertTrue(keys.press(GLFW_KEY_BACKSPACE, s));
        assertEquals("0002:07", keys.input());
        assertTrue(keys.press(GLFW_KEY_A, s), "while open the panel takes every key");
        assertTrue(keys.press(GLFW_KEY_ENTER, s));
        assertEquals(List.of(Cheat.parse("0002:07")), s.console().cheats(), "Enter adds the code, on");
        assertEquals("", keys.input());
        type(keys, "0003:01", s);
        assertTrue(keys.press(GLFW_KEY_KP_ENTER, s));
        assertEquals(2, s.cheatList().entries().size());
        keys.typed(' ', s); // the new entry is selected: Space puts it off
        assertEquals(List.of(Cheat.parse("0002:07")), s.console().cheats());
        assertTrue(keys.press(GLFW_KEY_DOWN, s)); // back round to the first
        keys.typed(' ', s);
        assertEquals(List.of(), s.console().cheats(), "both off");
        keys.typed(' ', s);
        assertEquals(List.of(Cheat.parse("0002:07")), s.console().cheats(), "Space again: on");
        assertTrue(keys.lines(s.cheatList()).contains("> [on]  0002:07"), keys.lines(s.cheatList()).toString());
        assertTrue(keys.press(GLFW_KEY_ESCAPE, s));
        assertFalse(keys.isOpen());
        assertFalse(keys.press(GLFW_KEY_ENTER, s), "closed again: keys go to the game");

        // Saved per ROM: the same ROM opens with the list and what was on; another ROM has its own.
        assertEquals("on 0002:07\noff 0003:01\n",
                Files.readString(CheatList.fileFor(dir.resolve("config"), s.romName())));
        Session again = session(DemoRom.cartridge());
        assertEquals(List.of(Cheat.parse("0002:07")), again.console().cheats());
        assertEquals(2, again.cheatList().entries().size());
        Session other = session(Cartridge.parse("other.nes", DemoRom.bytes()));
        assertTrue(other.cheatList().entries().isEmpty(), "another ROM's list is its own");
        assertTrue(other.console().cheats().isEmpty());
    }

    @Test
    void aFunctionKeyOpeningThePanelTypesNothingAndTheGameGoingClosesIt() throws Exception {
        CheatKeys keys = new CheatKeys();
        Session s = session(DemoRom.cartridge());
        assertNull(keys.open(s, GLFW_KEY_F7));
        keys.typed('1', s);
        assertEquals("1", keys.input(), "a key without a character swallows none");
        assertFalse(keys.press(GLFW_KEY_ENTER, null), "with no game the panel closes and the key goes on");
        assertFalse(keys.isOpen());
    }

    /** Three songs; init stores the song number (A) at $0010. */
    private static byte[] threeSongs() {
        Assembler.Program p = Assembler.assemble(String.join("\n", ".org $8000", "init:", "  sta $10", "  rts",
                "play:", "  rts", ""));
        byte[] prog = p.image(0x8000, p.size(), 0);
        byte[] d = new byte[0x80 + prog.length];
        byte[] head = {'N', 'E', 'S', 'M', 0x1A, 1, 3, 1, 0x00, (byte) 0x80};
        System.arraycopy(head, 0, d, 0, head.length);
        d[0xA] = (byte) p.symbol("init");
        d[0xB] = (byte) (p.symbol("init") >> 8);
        d[0xC] = (byte) p.symbol("play");
        d[0xD] = (byte) (p.symbol("play") >> 8);
        byte[] title = "Three Songs".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(title, 0, d, 0xE, title.length);
        d[0x6E] = (byte) (16639 & 0xFF);
        d[0x6F] = (byte) (16639 >> 8);
        System.arraycopy(prog, 0, d, 0x80, prog.length);
        return d;
    }

    /** The song the track's session started (init's A, stored at $0010), as the window plays it. */
    private int songPlayed(NsfTracks tracks) throws Exception {
        Session s = Session.ofConsole(tracks.console(), dir.resolve("three.nsf"), dirs(), new Osd());
        s.runFrame(0, 0);
        s.runFrame(0, 0);
        return s.console().peek(0x10);
    }

    @Test
    void theTrackKeysSwitchAnNsfsSongsAndSayWhenNoneIsPlaying() throws Exception {
        NsfTracks tracks = new NsfTracks();
        assertEquals("no NSF is playing", tracks.step(true));
        assertFalse(tracks.open(new RomFile.Image("demo.nes", DemoRom.bytes()), null), "a game is not an NSF");
        assertEquals("no NSF is playing", tracks.step(false));
        assertTrue(tracks.open(new RomFile.Image("three.nsf", threeSongs()), null));
        assertEquals(0, tracks.track());
        assertEquals(0, songPlayed(tracks));
        assertNull(tracks.step(true));
        assertEquals(1, songPlayed(tracks));
        assertEquals("track 2 / 3", tracks.lines().get(1));
        assertNull(tracks.step(false));
        assertNull(tracks.step(false));
        assertEquals(2, tracks.track(), "before the first, the last");
        assertEquals(2, songPlayed(tracks));
        assertNull(tracks.step(true));
        assertEquals(0, tracks.track(), "after the last, the first");
        tracks.close();
        assertEquals("no NSF is playing", tracks.step(true));
    }

    @Test
    void theDiskKeyActsOnBothEnginesInLockstep() throws Exception {
        byte[] image = new byte[16 + 2 * DiskImage.FDS_SIDE];
        image[0] = 'F';
        image[1] = 'D';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = 2;
        for (int side = 0; side < 2; side++) {
            int at = 16 + side * DiskImage.FDS_SIDE;
            image[at] = 1;
            System.arraycopy("*NINTENDO-HVC*".getBytes(StandardCharsets.US_ASCII), 0, image, at + 1, 14);
            image[at + 56] = 2;
        }
        byte[] bios = new byte[lockstep.nes.core.cart.fds.FdsBios.SIZE];
        bios[0] = 0x4C; // JMP $E000
        bios[2] = (byte) 0xE0;
        bios[0x1FFC] = 0x00;
        bios[0x1FFD] = (byte) 0xE0;
        Session s = session(DiskSystem.cartridge("game.fds", image, bios, 0));
        assertTrue(s.act(Action.LOCKSTEP).startsWith("lockstep on"));
        s.runFrame(0, 0);
        assertEquals("disk ejected", s.act(Action.DISK_SIDE));
        assertEquals("disk side 1B inserted", s.act(Action.DISK_SIDE));
        for (int i = 0; i < 5; i++) {
            s.runFrame(0, 0);
        }
        Console second = s.lockstep().second();
        assertEquals(1, ((FdsBoard) s.console().mapper()).insertedSide());
        assertEquals(1, ((FdsBoard) second.mapper()).insertedSide(), "the second engine got the same commands");
        assertFalse(s.lockstep().diverged());
    }
}
