package lockstep.nes.app;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.TestRoms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** headless keeps battery-backed PRG-RAM in {@code <rom>.sav}: saved at the end, loaded at the start. */
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

        Cli.Result first = Cli.run("headless", rom.toString(), "--frames", "30");
        assertEquals(0, first.exit(), first.err());
        Path sav = tmp.resolve("basics.nes.sav");
        assertTrue(Files.isRegularFile(sav), first.err());
        byte[] saved = Files.readAllBytes(sav);
        assertEquals(8192, saved.length);
        assertEquals((byte) 0xDE, saved[1]);
        assertEquals((byte) 0xB0, saved[2]);
        assertEquals((byte) 0x61, saved[3]);
        assertFalse(first.err().contains("loaded from"), first.err());

        Cli.Result second = Cli.run("headless", rom.toString(), "--frames", "1");
        assertEquals(0, second.exit(), second.err());
        assertTrue(second.err().contains("battery RAM loaded from " + sav), second.err());

        Files.delete(sav);
        Cli.Result off = Cli.run("headless", rom.toString(), "--frames", "1", "--no-battery");
        assertEquals(0, off.exit(), off.err());
        assertFalse(Files.exists(sav), "--no-battery writes nothing");
    }
}
