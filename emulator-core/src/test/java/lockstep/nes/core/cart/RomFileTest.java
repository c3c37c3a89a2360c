package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ROM images from plain files, .gz files and .zip archives, and one line for each bad archive. */
class RomFileTest {
    @TempDir
    Path dir;

    private static final byte[] ROM = Roms.ines(0, 32, 8, 1);

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }

    /** A zip of (name, bytes) pairs. */
    static byte[] zip(Object... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (int i = 0; i < entries.length; i += 2) {
                z.putNextEntry(new ZipEntry((String) entries[i]));
                z.write((byte[]) entries[i + 1]);
                z.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private Path file(String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }

    private String error(Path p, String entry) {
        return assertThrows(RomFormatException.class, () -> RomFile.read(p, entry)).getMessage();
    }

    @Test
    void aPlainRomIsItsOwnImage() throws Exception {
        Path p = file("game.nes", ROM);
        RomFile.Image image = RomFile.read(p, null);
        assertArrayEquals(ROM, image.bytes());
        assertEquals(p.toString(), image.name());
    }

    @Test
    void aGzipFileIsUnpacked() throws Exception {
        Path p = file("game.nes.gz", gzip(ROM));
        assertArrayEquals(ROM, RomFile.read(p, null).bytes());
        assertEquals(0, Cartridge.load(p).mapperNumber());
    }

    @Test
    void aZipWithOneRomNeedsNoEntry() throws Exception {
        Path p = file("game.zip", zip("readme.txt", new byte[] {'h', 'i'}, "dir/game.nes", ROM));
        RomFile.Image image = RomFile.read(p, null);
        assertArrayEquals(ROM, image.bytes());
        assertEquals(p + "!dir/game.nes", image.name());
    }

    @Test
    void aZipWithSeveralRomsListsThemAndTakesTheEntryNamed() throws Exception {
        byte[] other = Roms.ines(2, 128, 0, 0);
        Path p = file("two.zip", zip("a.nes", ROM, "sub/B.NES", other));
        assertEquals(p + ": 2 .nes files inside (a.nes, sub/B.NES): choose one with --entry NAME", error(p, null));
        assertArrayEquals(other, RomFile.read(p, "sub/B.NES").bytes());
        assertArrayEquals(other, RomFile.read(p, "B.NES").bytes()); // the name without its folder
        assertArrayEquals(ROM, RomFile.read(p, "a.nes").bytes());
        assertEquals(p + ": no c.nes inside the zip archive (it holds a.nes, sub/B.NES)", error(p, "c.nes"));
        assertEquals(2, Cartridge.load(p, "B.NES").mapperNumber());
    }

    @Test
    void badArchivesAreOneLineEach() throws Exception {
        Path notZip = file("fake.zip", "not an archive".getBytes());
        assertEquals(notZip + ": not a zip archive", error(notZip, null));
        Path noRom = file("docs.zip", zip("readme.txt", new byte[] {'h', 'i'}));
        assertEquals(noRom + ": no .nes file inside the zip archive", error(noRom, null));
        byte[] whole = zip("game.nes", ROM);
        Path cut = file("cut.zip", Arrays.copyOf(whole, whole.length / 2));
        assertTrue(error(cut, null).startsWith(cut + ": corrupt zip archive ("), error(cut, null));
        byte[] gz = gzip(ROM);
        Path cutGz = file("cut.nes.gz", Arrays.copyOf(gz, gz.length / 2));
        assertTrue(error(cutGz, null).startsWith(cutGz + ": corrupt gzip file ("), error(cutGz, null));
        Path notGz = file("fake.nes.gz", "plain text".getBytes());
        assertEquals(notGz + ": not a gzip file", error(notGz, null));
        Path plain = file("plain.nes", ROM);
        assertEquals(plain + ": --entry x.nes names a file inside a .zip archive, and this is not one", error(plain, "x.nes"));
        for (String m : new String[] {error(notZip, null), error(cut, null), error(cutGz, null)}) {
            assertTrue(!m.contains("\n"), m);
        }
    }

    @Test
    void anArchiveThatUnpacksPastTheLimitIsRefusedWithoutReadingFurther() throws Exception {
        byte[] big = new byte[RomFile.MAX_IMAGE + 1];
        Path bomb = file("bomb.zip", zip("bomb.nes", big));
        assertTrue(Files.size(bomb) < 1 << 20);
        assertEquals(bomb + ": bomb.nes is too large for a ROM (over " + RomFile.MAX_IMAGE + " bytes unpacked)",
                error(bomb, null));
        Path gz = file("bomb.nes.gz", gzip(big));
        assertEquals(gz + ": the gzip file is too large for a ROM (over " + RomFile.MAX_IMAGE + " bytes unpacked)",
                error(gz, null));
    }
}
