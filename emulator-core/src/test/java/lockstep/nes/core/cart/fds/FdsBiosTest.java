package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.cart.RomFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's BIOS: the file given, else disksys.rom in the config folder; when missing, one line says where it goes. */
class FdsBiosTest {
    @TempDir
    Path dir;

    @Test
    void aMissingBiosSaysWhereToPutIt() {
        Path fallback = dir.resolve("lockstep").resolve(FdsBios.FILE_NAME);
        RomFormatException e = assertThrows(RomFormatException.class, () -> FdsBios.load("game.fds", null, fallback));
        assertEquals("game.fds: a Famicom Disk System image needs the BIOS: put your disksys.rom (8 KiB) at " + fallback
                + " or give --fds-bios FILE", e.getMessage());
    }

    @Test
    void theConfigFoldersBiosIsUsedUnlessOneIsGiven() throws Exception {
        Path fallback = Files.write(dir.resolve(FdsBios.FILE_NAME), filled(1));
        assertArrayEquals(filled(1), FdsBios.load("game.fds", null, fallback));
        Path given = Files.write(dir.resolve("mine.rom"), filled(2));
        assertArrayEquals(filled(2), FdsBios.load("game.fds", given, fallback));
        assertEquals("x.fds: no side 1B (the disk has side 1A)", assertThrows(RomFormatException.class,
                () -> DiskSystem.cartridge("x.fds", TestDisks.side(0, java.util.List.of(), false), filled(0), 1))
                .getMessage());
        assertEquals(0, DiskSystem.parseSide("1a"));
        assertEquals(3, DiskSystem.parseSide("2B"));
        assertEquals(1, DiskSystem.parseSide("B"));
        assertEquals(-1, DiskSystem.parseSide("0A"));
        assertEquals(-1, DiskSystem.parseSide("side"));
    }

    private static byte[] filled(int v) {
        byte[] b = new byte[FdsBios.SIZE];
        java.util.Arrays.fill(b, (byte) v);
        return b;
    }
}
