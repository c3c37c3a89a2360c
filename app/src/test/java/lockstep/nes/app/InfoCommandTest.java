package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InfoCommandTest {
    @TempDir
    Path dir;

    @Test
    void printsHeaderFieldsAndHashes() throws Exception {
        byte[] rom = new byte[16 + 32768 + 8192];
        rom[0] = 'N';
        rom[1] = 'E';
        rom[2] = 'S';
        rom[3] = 0x1A;
        rom[4] = 2;
        rom[5] = 1;
        rom[6] = 0x43; // mapper 4, vertical, battery
        Path p = Files.write(dir.resolve("game.nes"), rom);
        Cli.Result r = Cli.run("info", p.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("mapper:      4 (MMC3/MMC6) - supported"), r.out());
        assertTrue(r.out().contains("PRG ROM:     32 KiB"), r.out());
        assertTrue(r.out().contains("CHR ROM:     8 KiB"), r.out());
        assertTrue(r.out().contains("mirroring:   vertical"), r.out());
        assertTrue(r.out().contains("battery:     yes"), r.out());
        // CRC32 and SHA-1 of 32 KiB of zeros.
        assertTrue(r.out().contains("PRG CRC32:   011FFCA6"), r.out());
        assertTrue(r.out().contains("PRG SHA-1:   5188431849b4613152fd7bdba6a3ff0a4fd6424b"), r.out());
    }

    @Test
    void badRomIsOneLineOnStderrAndExit2() throws Exception {
        Path p = Files.write(dir.resolve("junk.nes"), new byte[] {'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        Cli.Result r = Cli.run("info", p.toString());
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: " + p + ": bad magic"), r.err());
        Cli.Result missing = Cli.run("info", dir.resolve("nope.nes").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nope.nes: not found"), missing.err());
    }
}
