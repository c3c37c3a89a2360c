package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CartridgeTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] data) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }

    /** Loads a malformed file and returns the message, checking it is one line naming the file. */
    private String refuse(Path p) {
        RomFormatException e = assertThrows(RomFormatException.class, () -> Cartridge.load(p).createMapper());
        String msg = e.getMessage();
        assertTrue(msg.startsWith(p.toString() + ": "), msg);
        assertFalse(msg.contains("\n"), msg);
        return msg.substring(p.toString().length() + 2);
    }

    private static byte[] nes2Header(int prgLsb, int chrLsb, int mapper, int sizeMsb, int byte10, int byte11) {
        byte[] h = Roms.header(0, 0, mapper, 0);
        h[4] = (byte) prgLsb;
        h[5] = (byte) chrLsb;
        h[7] = (byte) ((mapper & 0xF0) | 0x08);
        h[8] = (byte) ((mapper >> 8) & 0x0F);
        h[9] = (byte) sizeMsb;
        h[10] = (byte) byte10;
        h[11] = (byte) byte11;
        return h;
    }

    @Test
    void malformedFilesGetOneClearLine() throws IOException {
        byte[] good = Roms.ines(0, 32, 8, 0);
        assertEquals("not found", refuse(dir.resolve("missing.nes")));
        Files.createDirectory(dir.resolve("folder.nes"));
        assertEquals("not a file", refuse(dir.resolve("folder.nes")));
        assertEquals("empty file", refuse(write("empty.nes", new byte[0])));
        assertTrue(refuse(write("short.nes", new byte[] {'N', 'E', 'S', 0x1A, 1}))
                .startsWith("truncated header (5 bytes"));
        byte[] bad = good.clone();
        bad[3] = 0x1B;
        assertTrue(refuse(write("magic.nes", bad)).startsWith("bad magic"));
        // A zip archive's magic: read as one (RomFile), whatever the name.
        assertTrue(refuse(write("zip.nes", new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}))
                .contains("zip archive"));
        assertTrue(refuse(write("prg.nes", Arrays.copyOf(good, 16 + 20000)))
                .startsWith("truncated PRG ROM (header says 32 KiB"));
        assertTrue(refuse(write("chr.nes", Arrays.copyOf(good, 16 + 32768 + 4096)))
                .startsWith("truncated CHR ROM (header says 8 KiB, file has 4 KiB"));
        byte[] zero = good.clone();
        zero[4] = 0;
        assertEquals("PRG ROM size is 0 in the header", refuse(write("zero.nes", zero)));
        assertEquals("unsupported mapper 82 (Taito X1-017)", refuse(write("x1017.nes", Roms.ines(82, 32, 8, 0))));
        assertEquals("unsupported mapper 254", refuse(write("m254.nes", Roms.ines(254, 32, 8, 0))));
        byte[] trainer = Roms.concat(Roms.header(2, 1, 0, 4), new byte[100]);
        assertTrue(refuse(write("trainer.nes", trainer)).startsWith("truncated trainer"));
        // NES 2.0: exponent form 2^63 bytes of PRG.
        assertTrue(refuse(write("exp.nes", Roms.concat(nes2Header(63 << 2, 0, 0, 0x0F, 0, 0), new byte[64])))
                .startsWith("NES 2.0 PRG ROM size 2^63*1 bytes is impossible"));
        // NES 2.0: PRG-RAM shift 15 (2 MiB).
        assertTrue(refuse(write("ram.nes", Roms.concat(nes2Header(2, 1, 0, 0, 0x0F, 0), Roms.prg(32), Roms.chr(8))))
                .startsWith("NES 2.0 PRG-RAM size (shift 15"));
        // NES 2.0: 12-bit PRG size ($F00 * 16 KiB would need 60 MiB) with a short file.
        assertTrue(refuse(write("big.nes", Roms.concat(nes2Header(0, 0, 0, 0x0E, 0, 0), Roms.prg(32))))
                .startsWith("truncated PRG ROM (header says 57344 KiB"));
        // NES 2.0 mapper number above 255 that nobody implements.
        assertEquals("unsupported mapper 300",
                refuse(write("m300.nes", Roms.concat(nes2Header(2, 1, 300, 0, 0, 0), Roms.prg(32), Roms.chr(8)))));
    }

    @Test
    void inesHeaderFields() throws RomFormatException {
        byte[] rom = Roms.concat(Roms.header(4, 2, 1, 0x02 | 0x04 | 0x01), new byte[512], Roms.prg(64), Roms.chr(16));
        rom[16] = 0x42;
        Cartridge c = Cartridge.parse("x.nes", rom);
        assertFalse(c.isNes2());
        assertEquals(1, c.mapperNumber());
        assertEquals(Mirroring.VERTICAL, c.mirroring());
        assertTrue(c.battery());
        assertEquals(8192, c.prgNvramSize());
        assertEquals(0, c.prgRamSize());
        assertEquals(65536, c.prg().length);
        assertEquals(16384, c.chr().length);
        assertEquals(0x42, c.trainer()[0]);
        assertArrayEquals(Roms.prg(64), c.prg());
        assertEquals(Cartridge.Timing.NTSC, c.timing());
    }

    @Test
    void archaicHeaderJunkIgnoresUpperMapperNibble() throws RomFormatException {
        byte[] rom = Roms.ines(0x42, 32, 8, 0);
        System.arraycopy("DiskDude!".getBytes(), 0, rom, 7, 9);
        Cartridge c = Cartridge.parse("dd.nes", rom);
        assertEquals(2, c.mapperNumber()); // 'D' = $44: upper nibble ignored, lower from byte 6
    }

    @Test
    void nes2HeaderFields() throws RomFormatException {
        byte[] h = nes2Header(2, 0, 0x104, 0, 0x77, 0x07);
        h[6] |= 0x0A; // battery + four-screen
        h[8] |= 0x30; // submapper 3
        h[12] = 1; // PAL
        h[7] |= 1; // Vs. System
        h[13] = 0x12;
        h[15] = 0x08;
        Cartridge c = Cartridge.parse("n2.nes", Roms.concat(h, Roms.prg(32)));
        assertTrue(c.isNes2());
        assertEquals(0x104, c.mapperNumber());
        assertEquals(3, c.submapper());
        assertEquals(8192, c.prgRamSize());
        assertEquals(8192, c.prgNvramSize());
        assertEquals(8192, c.chrRamSize());
        assertEquals(0, c.chrNvramSize());
        assertEquals(Mirroring.FOUR_SCREEN, c.mirroring());
        assertTrue(c.battery());
        assertEquals(Cartridge.Timing.PAL, c.timing());
        assertEquals(Cartridge.ConsoleType.VS_SYSTEM, c.consoleType());
        assertEquals(0x12, c.vsType());
        assertEquals(8, c.expansionDevice());
        assertNull(c.trainer());
    }

    @Test
    void nes2ExponentSize() throws RomFormatException {
        // 2^13 * (1*2+1) = 24 KiB of PRG, given in exponent-multiplier form.
        byte[] h = nes2Header(13 << 2 | 1, 0, 0, 0x0F, 0, 0x07);
        byte[] prg = new byte[24576];
        prg[24575] = 0x77;
        Cartridge c = Cartridge.parse("e.nes", Roms.concat(h, prg));
        assertEquals(24576, c.prg().length);
        Mapper m = Roms.mapper(c);
        assertEquals(0x77, m.cpuRead(0xDFFF));
    }

    @Test
    void hashes() {
        assertEquals("CBF43926", Cartridge.crc32("123456789".getBytes()));
        assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", Cartridge.digest("SHA-1", "abc".getBytes()));
        Cartridge c = Roms.cart(0, 16, 8);
        assertEquals(64, c.romSha256().length());
        assertEquals(8, c.romCrc32().length());
    }

    @Test
    void trainerIsLoadedAt7000() throws RomFormatException {
        byte[] trainer = new byte[512];
        trainer[0] = 0x11;
        trainer[511] = 0x22;
        Cartridge c = Cartridge.parse("t.nes", Roms.concat(Roms.header(1, 1, 0, 4), trainer, Roms.prg(16), Roms.chr(8)));
        Mapper m = Roms.mapper(c);
        assertEquals(0x11, m.cpuRead(0x7000));
        assertEquals(0x22, m.cpuRead(0x71FF));
    }
}
