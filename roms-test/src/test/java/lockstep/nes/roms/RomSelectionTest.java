package lockstep.nes.roms;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paths given on the command line: files, folders, manifest lookups and bad input. */
class RomSelectionTest {
    @TempDir
    Path roms;

    private Manifest manifest() {
        return Manifest.parse(("{\"roms\":[{\"rom\":\"suite/b.nes\",\"family\":\"f8\",\"expect\":\"known-fail\","
                + "\"reason\":\"r\"}]}").getBytes(StandardCharsets.UTF_8), "m");
    }

    @Test
    void foldersAreWalkedAndManifestEntriesUsed() throws Exception {
        TestRoms.Code c = new TestRoms.Code().forever();
        TestRoms.write(roms, "suite/a.nes", c);
        TestRoms.write(roms, "suite/b.nes", c);
        TestRoms.write(roms, "suite/deep/C.NES", c);
        Files.writeString(roms.resolve("suite/readme.txt"), "x");
        List<RomEntry> es = RomSelection.select(manifest(), roms, List.of("suite"), 77);
        assertEquals(List.of("suite/a.nes", "suite/b.nes", "suite/deep/C.NES"), es.stream().map(RomEntry::rom).toList());
        assertEquals(Family.STATUS_6000, es.get(0).family());
        assertEquals(77, es.get(0).frameLimit());
        assertEquals(Family.F8, es.get(1).family());
        // Absolute paths inside the roms dir get their relative name; duplicates run once.
        List<RomEntry> abs = RomSelection.select(manifest(), roms,
                List.of(roms.resolve("suite/b.nes").toString(), "suite/b.nes"), 10);
        assertEquals(1, abs.size());
        assertEquals(Family.F8, abs.get(0).family());
        // A folder name inside a collection folder of the roms dir is found too.
        assertEquals(3, RomSelection.select(manifest(), roms.resolve(".."), List.of("suite"), 10).size() > 0
                ? RomSelection.select(manifest(), roms.getParent(), List.of("suite"), 10).size() : -1);
        // No path: the whole manifest.
        assertEquals(manifest().entries(), RomSelection.select(manifest(), roms, List.of(), 10));
    }

    @Test
    void badPathsGiveOneClearLine() throws IOException {
        RomSelection.BadPathException e = assertThrows(RomSelection.BadPathException.class,
                () -> RomSelection.select(manifest(), roms, List.of("nope.nes"), 10));
        assertTrue(e.getMessage().startsWith("nope.nes: not found"), e.getMessage());
        Files.createDirectories(roms.resolve("empty"));
        e = assertThrows(RomSelection.BadPathException.class,
                () -> RomSelection.select(manifest(), roms, List.of("empty"), 10));
        assertEquals("empty: folder holds no .nes file", e.getMessage());
        Files.writeString(roms.resolve("text.nes"), "hello");
        e = assertThrows(RomSelection.BadPathException.class,
                () -> RomSelection.select(manifest(), roms, List.of("text.nes"), 10));
        assertEquals("text.nes: not an iNES ROM (bad magic)", e.getMessage());
    }
}
