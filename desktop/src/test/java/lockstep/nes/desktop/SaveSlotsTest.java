package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SaveSlotsTest {
    @TempDir
    Path dir;

    private Path rom() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("roms"));
        Path rom = folder.resolve("game.nes");
        Files.write(rom, DemoRom.bytes());
        return rom;
    }

    @Test
    void slotsSitBesideAWritableRom() throws Exception {
        Path rom = rom();
        Cartridge cart = Cartridge.load(rom);
        SaveSlots s = SaveSlots.of(rom, cart, dir.resolve("saves"), true);
        assertEquals(rom.resolveSibling("game.nes.ss1"), s.slot(1));
        assertEquals(rom.resolveSibling("game.nes.ss9"), s.slot(9));
        assertThrows(IllegalArgumentException.class, () -> s.slot(0));
        assertThrows(IllegalArgumentException.class, () -> s.slot(10));
    }

    @Test
    void aReadOnlyRomFolderPutsSlotsInTheDataFolderNextToTheBatterySave() throws Exception {
        Path rom = rom();
        Cartridge cart = Cartridge.load(rom);
        Path saves = dir.resolve("data/saves");
        SaveSlots s = SaveSlots.of(rom, cart, saves, false);
        Path battery = new BatterySave(rom, cart, saves, false).target();
        assertEquals(saves.resolve("game.nes-" + cart.romCrc32() + ".sav"), battery);
        assertEquals(saves.resolve("game.nes-" + cart.romCrc32() + ".ss3"), s.slot(3));
        Path written = s.write(3, new byte[] {1, 2, 3});
        assertEquals(s.slot(3).toAbsolutePath(), written);
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(written));
        try (var files = Files.list(rom.getParent())) {
            assertEquals(1, files.count(), "nothing written beside the ROM");
        }
    }

    @Test
    void aFolderThatRefusesWritesIsDetected() throws Exception {
        Path rom = rom();
        Cartridge cart = Cartridge.load(rom);
        Path saves = dir.resolve("saves");
        // A ROM "folder" that is really a file can be written by no one, root included.
        Path notADir = Files.writeString(dir.resolve("file"), "x");
        Path romInside = notADir.resolve("game.nes");
        assertFalse(BatterySave.canWriteIn(notADir));
        assertEquals(saves.resolve("game.nes-" + cart.romCrc32() + ".ss1"), SaveSlots.of(romInside, cart, saves).slot(1));
        assertTrue(BatterySave.canWriteIn(rom.getParent()));
        assertEquals(rom.resolveSibling("game.nes.ss1"), SaveSlots.of(rom, cart, saves).slot(1));
    }

    @Test
    void theDemoRomKeepsItsSlotsInTheSavesFolder() throws Exception {
        Cartridge cart = DemoRom.cartridge();
        Path saves = dir.resolve("saves");
        assertEquals(saves.resolve(DemoRom.NAME + "-" + cart.romCrc32() + ".ss2"), SaveSlots.of(null, cart, saves).slot(2));
    }
}
