package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Famicom Disk System images on the command line: info, the BIOS, the side, bad images. */
class DiskCommandsTest {
    @TempDir
    Path dir;

    /** A two-sided .fds image with the fwNES header; side 1A holds one file, "HELLO", of 300 bytes. */
    static byte[] disk() {
        byte[] image = new byte[16 + 2 * 65500];
        image[0] = 'F';
        image[1] = 'D';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = 2;
        for (int side = 0; side < 2; side++) {
            int at = 16 + side * 65500;
            image[at] = 1;
            byte[] v = "*NINTENDO-HVC*".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(v, 0, image, at + 1, v.length);
            image[at + 16] = 'T';
            image[at + 17] = 'S';
            image[at + 18] = 'T';
            image[at + 22] = (byte) side;
            at += 56;
            image[at] = 2;
            image[at + 1] = (byte) (side == 0 ? 1 : 0);
            if (side == 0) {
                at += 2;
                image[at] = 3;
                byte[] n = "HELLO   ".getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(n, 0, image, at + 3, 8);
                image[at + 13] = (byte) (300 & 0xFF);
                image[at + 14] = (byte) (300 >> 8);
                image[at + 16] = 4;
            }
        }
        return image;
    }

    /** A BIOS that only loops: reset at $E000, JMP $E000. */
    static byte[] bios() {
        byte[] b = new byte[8192];
        b[0] = 0x4C;
        b[1] = 0x00;
        b[2] = (byte) 0xE0;
        for (int v = 0x1FFA; v < 0x2000; v += 2) {
            b[v] = 0x00;
            b[v + 1] = (byte) 0xE0;
        }
        return b;
    }

    @Test
    void infoRecognisesADiskImageWithoutItsBios() throws Exception {
        Path p = Files.write(dir.resolve("game.fds"), disk());
        Cli.Result r = Cli.run("info", p.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Famicom Disk System image"), r.out());
        assertTrue(r.out().contains("sides:       2 (1A-1B)"), r.out());
        assertTrue(r.out().contains("side 1A:     1 file(s): HELLO (300 bytes)"), r.out());
        assertTrue(r.out().contains("side 1B:     0 file(s)"), r.out());
        assertTrue(r.out().contains("game code:   TST"), r.out());
    }

    @Test
    void aDiskRunsHeadlessWithTheBiosGivenAndTheSideChosen() throws Exception {
        Path game = Files.write(dir.resolve("game.fds"), disk());
        Path bios = Files.write(dir.resolve("bios.rom"), bios());
        Cli.Result r = Cli.run("headless", game.toString(), "--fds-bios", bios.toString(), "--frames", "3");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("frames=3 "), r.out());
        Cli.Result b = Cli.run("headless", game.toString(), "--fds-bios", bios.toString(), "--disk-side", "1B",
                "--frames", "3");
        assertEquals(0, b.exit(), b.err());
        Path changes = dir.resolve("game.changes");
        Cli.Result c = Cli.run("headless", game.toString(), "--fds-bios", bios.toString(), "--frames", "3",
                "--battery-file", changes.toString());
        assertEquals(0, c.exit(), c.err());
        assertTrue(c.err().contains("the disk is as loaded; no changes saved"), c.err());
        assertFalse(Files.exists(changes));
    }

    @Test
    void badDiskInputIsOneLineAndExitTwo() throws Exception {
        Path game = Files.write(dir.resolve("game.fds"), disk());
        Path bios = Files.write(dir.resolve("bios.rom"), bios());
        Cli.Result missing = Cli.run("headless", game.toString(), "--fds-bios", dir.resolve("none.rom").toString());
        assertEquals(2, missing.exit());
        assertEquals(1, missing.err().lines().count(), missing.err());
        assertTrue(missing.err().contains("none.rom: FDS BIOS not found"), missing.err());

        Path small = Files.write(dir.resolve("small.rom"), new byte[4096]);
        Cli.Result wrong = Cli.run("headless", game.toString(), "--fds-bios", small.toString());
        assertEquals(2, wrong.exit());
        assertTrue(wrong.err().contains("small.rom: not an FDS BIOS (4096 bytes, an FDS BIOS has 8192)"), wrong.err());

        Cli.Result side = Cli.run("headless", game.toString(), "--fds-bios", bios.toString(), "--disk-side", "2A");
        assertEquals(2, side.exit());
        assertTrue(side.err().contains("game.fds: --disk-side 2A: the disk has 2 side(s), 1A-1B"), side.err());
        Cli.Result notSide = Cli.run("headless", game.toString(), "--fds-bios", bios.toString(), "--disk-side", "C");
        assertEquals(2, notSide.exit());
        assertTrue(notSide.err().contains("--disk-side C: not a disk side"), notSide.err());

        byte[] broken = disk();
        broken[16 + 56] = 9; // the file amount block's code
        Path bad = Files.write(dir.resolve("bad.fds"), broken);
        Cli.Result b = Cli.run("info", bad.toString());
        assertEquals(2, b.exit());
        assertEquals(1, b.err().lines().count(), b.err());
        assertTrue(b.err().contains("bad.fds: side 1A block 2: block code 9 where 2 (file amount) belongs"), b.err());

        byte[] nes = new byte[16 + 16384 + 8192];
        nes[0] = 'N';
        nes[1] = 'E';
        nes[2] = 'S';
        nes[3] = 0x1A;
        nes[4] = 1;
        nes[5] = 1;
        Path cart = Files.write(dir.resolve("cart.nes"), nes);
        Cli.Result forCart = Cli.run("headless", cart.toString(), "--disk-side", "1B");
        assertEquals(2, forCart.exit());
        assertTrue(forCart.err().contains("--disk-side is for a Famicom Disk System image"), forCart.err());
    }
}
