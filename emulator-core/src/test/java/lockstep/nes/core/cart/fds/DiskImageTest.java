package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import lockstep.nes.core.cart.RomFormatException;
import org.junit.jupiter.api.Test;

/** The disk image parser: .fds with and without the fwNES header, .qd, and malformed files refused in one line. */
class DiskImageTest {
    private static final List<TestDisks.File> FILES = List.of(
            new TestDisks.File("KYODAKU-", 0x2800, 2, new byte[224]),
            new TestDisks.File("MAIN", 0x6000, 0, new byte[] {1, 2, 3, 4, 5}));

    @Test
    void anFdsImageWithoutTheHeaderHasOneSideOfBlocksInOrder() throws Exception {
        byte[] data = TestDisks.fds(false, TestDisks.side(0, FILES, false));
        assertTrue(DiskImage.looksLikeDisk(data));
        DiskImage d = DiskImage.parse("game.fds", data);
        assertEquals(1, d.sideCount());
        assertEquals(2, d.declaredFiles(0));
        List<byte[]> blocks = d.blocks(0);
        assertEquals(6, blocks.size());
        assertEquals(List.of(1, 2, 3, 4, 3, 4), blocks.stream().map(b -> (int) b[0]).toList());
        assertEquals(56, blocks.get(0).length);
        assertEquals(1 + 224, blocks.get(3).length);
        assertArrayEquals(new byte[] {4, 1, 2, 3, 4, 5}, blocks.get(5));
    }

    @Test
    void theFwnesHeaderCountsTheSides() throws Exception {
        byte[] data = TestDisks.fds(true, TestDisks.side(0, FILES, false), TestDisks.side(1, FILES.subList(1, 2), false));
        DiskImage d = DiskImage.parse("game.fds", data);
        assertEquals(2, d.sideCount());
        assertEquals(1, d.blocks(1).get(0)[22], "side B's disk info");
        assertEquals(4, d.blocks(1).size());
        assertArrayEquals(data, d.bytes());
    }

    @Test
    void aQdImageSkipsTheCrcAfterEachBlock() throws Exception {
        DiskImage fds = DiskImage.parse("game.fds", TestDisks.fds(false, TestDisks.side(0, FILES, false)));
        DiskImage qd = DiskImage.parse("game.qd", TestDisks.side(0, FILES, true));
        assertEquals(fds.blocks(0).size(), qd.blocks(0).size());
        for (int i = 0; i < fds.blocks(0).size(); i++) {
            assertArrayEquals(fds.blocks(0).get(i), qd.blocks(0).get(i), "block " + (i + 1));
        }
    }

    @Test
    void aWrongBlockCodeIsRefusedNamingTheFileSideAndBlock() {
        byte[] side = TestDisks.side(0, FILES, false);
        side[56 + 2 + 16] = 7; // the first file's data block
        RomFormatException e = assertThrows(RomFormatException.class,
                () -> DiskImage.parse("bad.fds", TestDisks.fds(true, side)));
        assertEquals("bad.fds: side 1A block 4: block code 7 where 4 (file data) belongs, at byte 74", e.getMessage());
    }

    @Test
    void aMissingDeclaredFileIsRefused() {
        byte[] side = TestDisks.side(0, FILES, false);
        side[57] = 3; // the file amount says 3 files, the side has 2
        RomFormatException e = assertThrows(RomFormatException.class, () -> DiskImage.parse("short.fds", side));
        assertTrue(e.getMessage().startsWith("short.fds: side 1A block 7: block code 0 where 3 (file header) belongs"),
                e.getMessage());
    }

    @Test
    void aTruncatedImageIsRefusedNamingTheBlockCut() {
        byte[] whole = TestDisks.fds(false, TestDisks.side(0, FILES, false));
        byte[] cut = Arrays.copyOf(whole, 56 + 2 + 16 + 100);
        RomFormatException e = assertThrows(RomFormatException.class, () -> DiskImage.parse("cut.fds", cut));
        assertEquals("cut.fds: side 1A block 4 (file data): truncated (225 bytes from byte 74, the side ends at byte 174)",
                e.getMessage());
        byte[] noFiles = Arrays.copyOf(whole, 56);
        e = assertThrows(RomFormatException.class, () -> DiskImage.parse("cut.fds", noFiles));
        assertEquals("cut.fds: side 1A block 2 (file amount): truncated (the side ends at byte 56)", e.getMessage());
    }

    @Test
    void aHeaderPromisingMoreSidesThanTheFileHoldsIsRefused() {
        byte[] data = TestDisks.fds(true, TestDisks.side(0, FILES, false));
        data[4] = 2;
        RomFormatException e = assertThrows(RomFormatException.class, () -> DiskImage.parse("two.fds", data));
        assertEquals("two.fds: truncated: the header says 2 sides, the file holds 1 whole side(s) and 0 bytes",
                e.getMessage());
    }

    @Test
    void otherMalformedFilesGetOneLineEach() {
        byte[] noVerify = TestDisks.fds(true, TestDisks.side(0, FILES, false));
        noVerify[16 + 5] = 'X';
        assertEquals("nv.fds: side 1A block 1 (disk info): no \"*NINTENDO-HVC*\" after the block code",
                assertThrows(RomFormatException.class, () -> DiskImage.parse("nv.fds", noVerify)).getMessage());
        assertEquals("e.fds: empty file",
                assertThrows(RomFormatException.class, () -> DiskImage.parse("e.fds", new byte[0])).getMessage());
        assertEquals("h.fds: truncated fwNES header (8 bytes, need 16)", assertThrows(RomFormatException.class,
                () -> DiskImage.parse("h.fds", Arrays.copyOf(noVerify, 8))).getMessage());
        byte[] zeroSides = TestDisks.fds(true, TestDisks.side(0, FILES, false));
        zeroSides[4] = 0;
        assertEquals("z.fds: the fwNES header says 0 disk sides",
                assertThrows(RomFormatException.class, () -> DiskImage.parse("z.fds", zeroSides)).getMessage());
        assertFalse(DiskImage.looksLikeDisk(new byte[] {'N', 'E', 'S', 0x1A, 1, 1, 0, 0}));
    }

    @Test
    void everyMalformedByteOfTheChainIsRefusedWithOneLineNotAnException() {
        byte[] good = TestDisks.fds(false, TestDisks.side(0, FILES, false));
        for (int at = 0; at < 56 + 2 + 16 + 225 + 16 + 6 + 2; at++) {
            byte[] bad = good.clone();
            bad[at] ^= 0x55;
            try {
                DiskImage.parse("fuzz.fds", bad);
            } catch (RomFormatException e) {
                assertTrue(e.getMessage().startsWith("fuzz.fds: ") && !e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }

    @Test
    void aLaidOutBlockEndsWithACrcThatBringsTheCrcToZero() {
        byte[] block = TestDisks.diskInfo(0);
        byte[] stream = new byte[DiskLayout.SIDE_BYTES];
        assertTrue(DiskLayout.layOut(List.of(block), stream, 0));
        for (int i = 0; i < DiskLayout.LEAD_IN; i++) {
            assertEquals(0, stream[i]);
        }
        assertEquals((byte) DiskLayout.MARK, stream[DiskLayout.LEAD_IN]);
        assertArrayEquals(block, Arrays.copyOfRange(stream, DiskLayout.LEAD_IN + 1, DiskLayout.LEAD_IN + 57));
        assertEquals(0, DiskLayout.crc(stream, DiskLayout.LEAD_IN + 1, 56 + 2));
        assertTrue(DiskLayout.crc(stream, DiskLayout.LEAD_IN + 1, 56) != 0);
        // CRC-16/KERMIT's check value for "123456789" is $2189 from 0; the 2C33 starts at $8000 instead.
        byte[] check = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int crc = 0;
        for (byte b : check) {
            crc = DiskLayout.crcStep(crc, b & 0xFF);
        }
        assertEquals(0x2189, crc);
    }
}
