package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one writer of the project's files: whole or not at all, never over a folder, nothing left behind. */
class AtomicFileTest {
    @TempDir
    Path dir;

    private List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void writesAndReplacesAFile() throws IOException {
        Path f = dir.resolve("a.sav");
        AtomicFile.write(f, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(f));
        AtomicFile.write(f, new byte[] {4});
        assertArrayEquals(new byte[] {4}, Files.readAllBytes(f));
        assertEquals(List.of(f), listing(), "no temporary file is left");
    }

    @Test
    void refusesAFolderAndLeavesItAlone() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(empty, new byte[] {1}));
        assertTrue(e.getMessage().contains("folder"), e.getMessage());
        assertTrue(Files.isDirectory(empty), "the folder is still there");
        assertEquals(List.of(empty), listing(), "no temporary file is left");
    }

    @Test
    void aMissingFolderIsAnErrorUnlessAskedToCreateIt() throws IOException {
        Path f = dir.resolve("no/such/folder/x.png");
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(f, new byte[] {1}));
        assertTrue(e.getMessage().contains("no folder"), e.getMessage());
        assertEquals(List.of(), listing());
        AtomicFile.writeCreatingFolder(f, new byte[] {7});
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(f));
    }

    @Test
    void aSymlinkIsFollowedAndStays() throws IOException {
        Path real = dir.resolve("real.json");
        Files.write(real, new byte[] {9, 9});
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real.json"));
        AtomicFile.write(link, new byte[] {1, 2});
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(real));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.json"), Path.of("new.json"));
        AtomicFile.write(dangling, new byte[] {3});
        assertTrue(Files.isSymbolicLink(dangling));
        assertArrayEquals(new byte[] {3}, Files.readAllBytes(dir.resolve("new.json")));
        assertEquals(List.of(dangling, link, dir.resolve("new.json"), real), listing(), "no temporary file is left");
    }

    @Test
    void aFifoIsStreamedNotReplaced() throws Exception {
        Path fifo = dir.resolve("pipe");
        Assumptions.assumeTrue(run("mkfifo", fifo.toString()), "mkfifo is available");
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        AtomicFile.write(fifo, new byte[] {5, 6, 7});
        assertArrayEquals(new byte[] {5, 6, 7}, read.get(10, TimeUnit.SECONDS));
        assertTrue(isType(fifo, 0010000), "still a FIFO");
        assertEquals(List.of(fifo), listing());
    }

    @Test
    void aCharacterDeviceIsWrittenInPlaceAndAWriteErrorLeavesItAlone() throws Exception {
        Path nul = dir.resolve("null");
        Path full = dir.resolve("full");
        Assumptions.assumeTrue(run("mknod", nul.toString(), "c", "1", "3") && run("mknod", full.toString(), "c", "1", "7"),
                "mknod is allowed (root)");
        AtomicFile.write(nul, new byte[] {1, 2, 3});
        assertTrue(isType(nul, 0020000), "still a character device");
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(full, new byte[] {1, 2, 3}));
        assertTrue(e.getMessage().contains("space"), e.getMessage());
        assertTrue(isType(full, 0020000), "still a character device");
        assertEquals(List.of(full, nul), listing(), "no temporary file is left");
    }

    @Test
    void aNewFileGetsThePlainCreationModeAndAReplacedOneKeepsItsMode() throws Exception {
        Path plain = Files.createFile(dir.resolve("plain"));
        Set<PosixFilePermission> umasked = Files.getPosixFilePermissions(plain);
        Path f = dir.resolve("new.bin");
        AtomicFile.write(f, new byte[] {1});
        assertEquals(umasked, Files.getPosixFilePermissions(f), "not the 0600 of a temporary file");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        AtomicFile.write(f, new byte[] {2});
        assertEquals(PosixFilePermissions.fromString("rw-r-----"), Files.getPosixFilePermissions(f));
    }

    private static boolean isType(Path p, int bits) throws IOException {
        return ((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000) == bits;
    }

    private static boolean run(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
