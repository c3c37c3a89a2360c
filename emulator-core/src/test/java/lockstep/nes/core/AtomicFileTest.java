package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
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
}
