package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import lockstep.nes.core.demo.DemoRom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ROM inside a .gz or a .zip runs as the plain file does; a zip holding several needs --entry. */
class ArchiveRomTest {
    @TempDir
    Path dir;

    private static String state(Cli.Result r) {
        assertEquals(0, r.exit(), r.err());
        String out = r.out();
        int i = out.indexOf("state=");
        return out.substring(i, out.indexOf(' ', i));
    }

    @Test
    void headlessRunsTheSameMachineFromEachForm() throws IOException {
        byte[] rom = DemoRom.bytes();
        Path plain = Files.write(dir.resolve("demo.nes"), rom);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
            z.write(rom);
        }
        Path gzipped = Files.write(dir.resolve("demo.nes.gz"), gz.toByteArray());
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(zip)) {
            for (String name : new String[] {"first.nes", "roms/demo.nes"}) {
                z.putNextEntry(new ZipEntry(name));
                z.write(rom);
                z.closeEntry();
            }
        }
        Path zipped = Files.write(dir.resolve("two.zip"), zip.toByteArray());
        String expected = state(Cli.run("headless", plain.toString(), "--frames", "3"));
        assertEquals(expected, state(Cli.run("headless", gzipped.toString(), "--frames", "3")));
        assertEquals(expected, state(Cli.run("headless", zipped.toString(), "--entry", "demo.nes", "--frames", "3")));
        Cli.Result info = Cli.run("info", zipped.toString(), "--entry", "roms/demo.nes");
        assertEquals(0, info.exit(), info.err());
        assertTrue(info.out().contains(zipped + "!roms/demo.nes"), info.out());
        Cli.Result ask = Cli.run("info", zipped.toString());
        assertEquals(2, ask.exit());
        assertEquals("error: " + zipped + ": 2 .nes files inside (first.nes, roms/demo.nes): choose one with --entry NAME",
                ask.err().strip());
    }
}
