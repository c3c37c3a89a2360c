package lockstep.nes.app;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.TestRoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * headless keeps battery-backed PRG-RAM only when asked ({@code --battery}: in {@code <rom>.sav};
 * {@code --battery-file FILE}: there): saved at the end, loaded at the start. Without either the
 * run depends on its inputs alone and writes nothing beside the ROM.
 */
class BatteryHeadlessTest {
    @TempDir
    Path tmp;

    @Test
    void batteryRamIsSavedBesideTheRomAndLoadedNextTime() throws Exception {
        // A $6000-protocol ROM (it writes PRG-RAM), copied and given the battery flag.
        byte[] image = Files.readAllBytes(TestRoms.require("instr_test-v5/rom_singles/01-basics.nes"));
        image[6] |= 0x02;
        Path rom = tmp.resolve("basics.nes");
        Files.write(rom, image);

        Cli.Result plain = Cli.run("headless", rom.toString(), "--frames", "30");
        assertEquals(0, plain.exit(), plain.err());
        Path sav = tmp.resolve("basics.nes.sav");
        assertFalse(Files.exists(sav), "no save unless asked");

        Cli.Result first = Cli.run("headless", rom.toString(), "--frames", "30", "--battery");
        assertEquals(0, first.exit(), first.err());
        assertTrue(Files.isRegularFile(sav), first.err());
        byte[] saved = Files.readAllBytes(sav);
        assertEquals(8192, saved.length);
        assertEquals((byte) 0xDE, saved[1]);
        assertEquals((byte) 0xB0, saved[2]);
        assertEquals((byte) 0x61, saved[3]);
        assertFalse(first.err().contains("loaded from"), first.err());

        Cli.Result second = Cli.run("headless", rom.toString(), "--frames", "1", "--battery");
        assertEquals(0, second.exit(), second.err());
        assertTrue(second.err().contains("battery RAM loaded from " + sav), second.err());

        // With a save beside the ROM, a run that did not ask gives the same state as before.
        Cli.Result again = Cli.run("headless", rom.toString(), "--frames", "30");
        assertEquals(plain.out().replaceAll("fps=[0-9.]+", ""), again.out().replaceAll("fps=[0-9.]+", ""),
                "the .sav beside the ROM does not change a run that did not ask for it");
        byte[] before = Files.readAllBytes(sav);
        Cli.Result off = Cli.run("headless", rom.toString(), "--frames", "1", "--no-battery");
        assertEquals(0, off.exit(), off.err());
        assertArrayEquals(before, Files.readAllBytes(sav), "--no-battery (the default) leaves the save alone");
        assertFalse(off.err().contains("battery"), off.err());

        Path own = tmp.resolve("elsewhere/game.sav");
        Files.createDirectories(own.getParent());
        Cli.Result file = Cli.run("headless", rom.toString(), "--frames", "30", "--battery-file", own.toString());
        assertEquals(0, file.exit(), file.err());
        assertArrayEquals(before, Files.readAllBytes(own), "--battery-file FILE: the same RAM, saved there");
        Cli.Result fromFile = Cli.run("headless", rom.toString(), "--frames", "1", "--battery-file", own.toString());
        assertTrue(fromFile.err().contains("battery RAM loaded from " + own), fromFile.err());
    }
}
