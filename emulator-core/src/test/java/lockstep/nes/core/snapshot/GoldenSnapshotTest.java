package lockstep.nes.core.snapshot;

import lockstep.nes.state.Describer;

import lockstep.nes.state.StateEntry;

import lockstep.nes.core.digest.TestRoms;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import lockstep.nes.core.Console;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;
import org.junit.jupiter.api.Test;

/**
 * Golden snapshots of format version 1. Regenerate deliberately with
 * {@code -Dlockstep.regenerateGolden=true} (from the module directory), and only together with a
 * {@link SnapshotFormat#VERSION} bump when the encoding changed.
 *
 * <ul>
 * <li>{@code synthetic-v1.snap}: a fixed component using every entry kind; its bytes pin the
 * encoding itself, independent of the emulator's components.</li>
 * <li>{@code tiny-v1.snap}: the engine running {@link TestRoms#tiny()} for 10 frames.</li>
 * </ul>
 */
class GoldenSnapshotTest {
    private static final Path RESOURCES = Path.of("src/test/resources/lockstep/nes/core/snapshot");

    /** Every kind of entry, nested sections and a Memory, with fixed values. */
    static final class Synthetic implements Stateful {
        boolean flag = true;
        int byteValue = 0xA5;
        int word = 0xBEEF;
        int signed = -123456789;
        long big = 0x0123456789ABCDEFL;
        final byte[] bytes = {1, 2, 3, (byte) 0xFF};
        final int[] ints = {-1, 0, 7};
        final Memory mem = new Memory("mem", Memory.MAPPER + 1, 16);
        final Stateful child = s -> s.u8("inner", 0x42);

        Synthetic() {
            for (int i = 0; i < 16; i++) {
                mem.write(i, i * 17);
            }
        }

        @Override
        public void state(StateVisitor s) {
            s.beginSection("first");
            flag = s.bool("flag", flag);
            byteValue = s.u8("byteValue", byteValue);
            word = s.u16("word", word);
            signed = s.i32("signed", signed);
            big = s.i64("big", big);
            s.section("child", child);
            s.bytes("bytes", bytes);
            s.ints("ints", ints);
            s.endSection();
            s.beginSection("second");
            mem.state(s);
            s.endSection();
        }
    }

    private static byte[] syntheticSnapshot(Stateful root) {
        byte[] rom = new byte[32];
        for (int i = 0; i < 32; i++) {
            rom[i] = (byte) i;
        }
        SnapshotWriter w = new SnapshotWriter(256);
        int n = Snapshots.encode(root, rom, 123_456_789L, 4321L, w, new CRC32());
        return Arrays.copyOf(w.buffer(), n);
    }

    private static byte[] tinySnapshot() {
        Console c = TestRoms.console(TestRoms.tiny());
        c.setButtons(0, 0x81);
        for (int i = 0; i < 10; i++) {
            c.runFrame();
        }
        for (int i = 0; i < 777; i++) {
            c.runCycle();
        }
        return new Snapshots(c).save();
    }

    private static byte[] golden(String name, byte[] current) throws IOException {
        if (Boolean.getBoolean("lockstep.regenerateGolden")) {
            Files.createDirectories(RESOURCES);
            Files.write(RESOURCES.resolve(name), current);
            System.out.println("regenerated " + RESOURCES.resolve(name));
        }
        try (InputStream in = GoldenSnapshotTest.class.getResourceAsStream(name)) {
            assertNotNull(in, "golden file " + name + " missing: regenerate it");
            return in.readAllBytes();
        }
    }

    @Test
    void encodingMatchesTheVersion1GoldenFile() throws Exception {
        byte[] current = syntheticSnapshot(new Synthetic());
        byte[] gold = golden("synthetic-v1.snap", current);
        if (SnapshotFormat.VERSION == 1) {
            assertArrayEquals(gold, current,
                    "the snapshot encoding changed without a format version bump (SnapshotFormat.VERSION)");
        }
    }

    @Test
    void version1GoldenFileStillReads() throws Exception {
        byte[] gold = golden("synthetic-v1.snap", syntheticSnapshot(new Synthetic()));
        SnapshotFile f = SnapshotFile.parse(gold, "synthetic-v1.snap");
        assertEquals(1, f.version());
        assertEquals(123_456_789L, f.cycle());
        assertEquals(4321L, f.frame());
        List<String> paths = f.entries().stream().map(StateEntry::path).toList();
        assertEquals(List.of("first", "first.flag", "first.byteValue", "first.word", "first.signed", "first.big",
                "first.child", "first.child.inner", "first.bytes", "first.ints", "second", "second.mem"), paths);
        assertEquals(0xBEEF, f.entries().get(3).value());
        assertEquals(-123456789, f.entries().get(4).value());
        assertEquals(0x0123456789ABCDEFL, f.entries().get(5).value());
        assertArrayEquals(new int[] {-1, 0, 7}, f.entries().get(9).ints());
        // Loading into a zeroed component restores every value (and the memory's hash).
        Synthetic zero = new Synthetic();
        zero.flag = false;
        zero.byteValue = 0;
        zero.word = 0;
        zero.signed = 0;
        zero.big = 0;
        Arrays.fill(zero.bytes, (byte) 0);
        Arrays.fill(zero.ints, 0);
        zero.mem.fill(0);
        SnapshotReader r = new SnapshotReader();
        r.reset(gold, SnapshotFormat.HEADER, gold.length - SnapshotFormat.TRAILER, true);
        zero.state(r);
        r.finish();
        assertArrayEquals(gold, syntheticSnapshot(zero));
        assertEquals(new Synthetic().mem.hash(), zero.mem.hash());
    }

    @Test
    void engineGoldenReadsAndEitherRoundTripsOrIsRefusedClearly() throws Exception {
        byte[] current = tinySnapshot();
        byte[] gold = golden("tiny-v1.snap", current);
        SnapshotFile f = SnapshotFile.parse(gold, "tiny-v1.snap");
        assertEquals(1, f.version());
        assertArrayEquals(RomId.sha256(TestRoms.tiny()), f.romSha256());
        assertTrue(f.entries().stream().anyMatch(e -> e.path().equals("cpu.pc")));
        Console c = TestRoms.console(TestRoms.tiny());
        Snapshots s = new Snapshots(c);
        List<String> goldLayout = f.entries().stream().map(e -> e.path() + ":" + e.tag() + ":" + e.length()).toList();
        List<String> engineLayout = Describer.describe(c).stream()
                .map(e -> e.path() + ":" + e.tag() + ":" + e.length()).toList();
        if (goldLayout.equals(engineLayout)) {
            s.load(gold);
            assertArrayEquals(gold, s.save(), "a v1 snapshot of this engine's layout round-trips exactly");
        } else {
            // Components gained or lost fields since the golden file was made: loading must be
            // refused with the layout check (regenerate tiny-v1.snap deliberately).
            byte[] before = s.save();
            SnapshotException e = assertThrows(SnapshotException.class, () -> s.load(gold));
            assertTrue(e.getMessage().contains("layout") || e.getMessage().contains("elements")
                    || e.getMessage().contains("does not describe"), e.getMessage());
            assertArrayEquals(before, s.save());
        }
    }
}
