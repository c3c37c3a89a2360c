package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatterySaveTest {
    @TempDir
    Path dir;

    private Cartridge batteryCart() {
        return Cartridge.builder("zelda.nes", Roms.prg(128), new byte[0], 1).battery(true).prgRam(0, 8192).build();
    }

    @Test
    void savesBesideTheRomAndLoadsIntoAFreshEngine() throws IOException {
        Path rom = Files.write(dir.resolve("zelda.nes"), new byte[] {1});
        Cartridge cart = batteryCart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0x6000, 0x5A);
        m.cpuWrite(0x7FFF, 0xA5);
        BatterySave save = new BatterySave(rom, cart, dir.resolve("data"));
        assertNull(save.load(m), "no save yet");
        assertEquals(dir.resolve("zelda.nes.sav"), save.save(m));
        byte[] file = Files.readAllBytes(dir.resolve("zelda.nes.sav"));
        assertEquals(8192, file.length);
        assertEquals(0x5A, file[0] & 0xFF);
        assertEquals(0xA5, file[8191] & 0xFF);
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.toString().endsWith(".tmp")), "temp file left behind");
        }

        Mapper fresh = Roms.mapper(cart);
        long emptyHash = fresh.prgRam().hash();
        assertEquals(dir.resolve("zelda.nes.sav"), save.load(fresh));
        assertEquals(0x5A, fresh.cpuRead(0x6000));
        assertEquals(0xA5, fresh.cpuRead(0x7FFF));
        assertEquals(m.prgRam().hash(), fresh.prgRam().hash(), "incremental hash rebuilt after load");
        assertFalse(emptyHash == fresh.prgRam().hash());
        // Battery RAM survives a power cycle of the engine.
        fresh.power();
        assertEquals(0x5A, fresh.cpuRead(0x6000));
    }

    @Test
    void unwritableRomFolderFallsBackToTheDataFolder() throws IOException {
        Path rom = Files.write(dir.resolve("zelda.nes"), new byte[] {1});
        Cartridge cart = batteryCart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0x6001, 0x33);
        Path data = dir.resolve("xdg").resolve("lockstep-nes").resolve("saves");
        BatterySave save = new BatterySave(rom, cart, data, false);
        Path written = save.save(m);
        assertEquals(data, written.getParent());
        assertTrue(written.getFileName().toString().startsWith("zelda.nes-"));
        assertFalse(Files.exists(dir.resolve("zelda.nes.sav")));

        // Later the folder is writable again: the old save is still found.
        BatterySave again = new BatterySave(rom, cart, data, true);
        Mapper fresh = Roms.mapper(cart);
        assertEquals(written, again.load(fresh));
        assertEquals(0x33, fresh.cpuRead(0x6001));
    }

    @Test
    void aFailedWriteBesideTheRomStillSaves() throws IOException {
        // The ROM "folder" is claimed writable but the .sav path is a directory: the rename fails.
        Path rom = Files.write(dir.resolve("game.nes"), new byte[] {1});
        Files.createDirectory(dir.resolve("game.nes.sav"));
        Files.writeString(dir.resolve("game.nes.sav").resolve("keep"), "x");
        Cartridge cart = batteryCart();
        Mapper m = Roms.mapper(cart);
        m.cpuWrite(0x6000, 0x77);
        Path written = new BatterySave(rom, cart, dir.resolve("data"), true).save(m);
        assertEquals(dir.resolve("data"), written.getParent());
        assertEquals(0x77, Files.readAllBytes(written)[0] & 0xFF);
    }

    @Test
    void boardsWithoutBatteryHaveNothingToSave() throws IOException {
        Path rom = Files.write(dir.resolve("smb.nes"), new byte[] {1});
        Cartridge cart = Roms.cart(0, 32, 8);
        BatterySave save = new BatterySave(rom, cart, dir.resolve("data"));
        assertNull(save.save(Roms.mapper(cart)));
        assertNull(save.load(Roms.mapper(cart)));
        assertFalse(Files.exists(dir.resolve("smb.nes.sav")));
    }
}
