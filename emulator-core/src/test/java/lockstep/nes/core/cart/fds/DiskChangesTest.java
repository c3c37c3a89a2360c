package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A game's writes to its disk kept as a separate file of changes, never in the image. */
class DiskChangesTest {
    @TempDir
    Path dir;

    @Test
    void changesSurviveInTheirOwnFileAndTheImageIsUntouched() throws Exception {
        Cartridge cart = FdsBoardTest.cart(2);
        Path image = dir.resolve("game.fds");
        Files.write(image, cart.disk().bytes());
        Path data = dir.resolve("data");
        FdsBoard board = new FdsBoard(cart);
        board.power();
        DiskChanges changes = new DiskChanges(image, cart, data);
        assertNull(changes.save(board), "nothing written: no file");
        assertFalse(Files.exists(changes.file()));

        board.diskMemory().write(5000, 0x42);
        board.diskMemory().write(5001, 0x43);
        board.diskMemory().write(DiskLayout.SIDE_BYTES + 70000, 0x99);
        Path saved = changes.save(board);
        assertEquals(data.resolve("game.fds-" + cart.romCrc32() + ".fdschanges"), saved);
        assertTrue(Files.size(saved) < 64, "a file of changes, not of the disk: " + Files.size(saved) + " bytes");
        assertArrayEquals(cart.disk().bytes(), Files.readAllBytes(image));

        FdsBoard again = new FdsBoard(cart);
        again.power();
        long before = again.diskMemory().hash();
        assertEquals(saved, new DiskChanges(image, cart, data).load(again));
        assertArrayEquals(board.diskMemory().array(), again.diskMemory().array());
        assertEquals(board.diskMemory().hash(), again.diskMemory().hash());
        assertTrue(before != again.diskMemory().hash());
    }

    @Test
    void changesForAnotherImageAreRefused() throws Exception {
        Cartridge cart = FdsBoardTest.cart(1);
        Cartridge other = FdsBoardTest.cart(2);
        Path image = dir.resolve("game.fds");
        FdsBoard board = new FdsBoard(cart);
        board.power();
        board.diskMemory().write(4000, 1);
        Path saved = new DiskChanges(image, cart, dir).save(board);
        // Another disk under the same file name, its changes file copied over.
        DiskChanges theirs = new DiskChanges(image, other, dir);
        Files.copy(saved, theirs.file());
        FdsBoard otherBoard = new FdsBoard(other);
        IOException e = assertThrows(IOException.class, () -> theirs.load(otherBoard));
        assertTrue(e.getMessage().endsWith("the changes are for another disk image"), e.getMessage());
    }

    @Test
    void runsJoinNearbyChangesAndStopAtLongUnchangedStretches() {
        byte[] was = new byte[100];
        byte[] now = was.clone();
        now[10] = 1;
        now[14] = 2;
        now[60] = 3;
        byte[] out = DiskChanges.encode(was, now, 7);
        // Header 16, then a run 10..14 (6 + 5 bytes) and a run at 60 (6 + 1).
        assertEquals(16 + 11 + 7, out.length);
    }
}
