package lockstep.nes.core.snapshot;

import lockstep.nes.state.Describer;
import lockstep.nes.state.StateDiff;
import lockstep.nes.state.StateEntry;

import lockstep.nes.core.digest.CycleDigest;

import lockstep.nes.core.digest.TestRoms;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mirroring;
import org.junit.jupiter.api.Test;

class SnapshotTest {

    private static Console running(int frames) {
        Console c = TestRoms.console(TestRoms.tiny());
        c.setButtons(0, 0x01);
        for (int i = 0; i < frames; i++) {
            c.runFrame();
        }
        for (int i = 0; i < 1234; i++) {
            c.runCycle();
        }
        return c;
    }

    @Test
    void sameStateGivesSameBytesAndLoadRoundTrips() throws Exception {
        Console a = running(5);
        Console b = running(5);
        byte[] sa = new Snapshots(a).save();
        assertArrayEquals(sa, new Snapshots(b).save(), "two engines in the same state");
        assertArrayEquals(sa, new Snapshots(a).save(), "saving twice");

        Snapshots snaps = new Snapshots(a);
        for (int i = 0; i < 3; i++) {
            a.runFrame();
        }
        byte[] later = snaps.save();
        assertFalse(Arrays.equals(sa, later));
        snaps.load(sa);
        assertArrayEquals(sa, snaps.save(), "load restores the saved state exactly");
        for (int i = 0; i < 3; i++) {
            a.runFrame();
        }
        assertArrayEquals(later, snaps.save(), "and the run continues identically");
    }

    @Test
    void loadsIntoAFreshEngine() throws Exception {
        Console a = running(4);
        byte[] s = new Snapshots(a).save();
        Console fresh = TestRoms.console(TestRoms.tiny());
        Snapshots f = new Snapshots(fresh);
        f.load(s);
        assertEquals(a.cycles(), fresh.cycles());
        assertEquals(a.frame(), fresh.frame());
        assertEquals(new CycleDigest(a).digest(), new CycleDigest(fresh).digest());
        for (int i = 0; i < 50_000; i++) {
            a.runCycle();
            fresh.runCycle();
        }
        assertArrayEquals(new Snapshots(a).save(), f.save());
    }

    @Test
    void nromSnapshotFitsTheBudget() {
        int size = new Snapshots(running(2)).save().length;
        System.out.println("NROM (CHR-ROM) snapshot size: " + size + " bytes");
        assertTrue(size <= 16 * 1024, "NROM snapshot is " + size + " bytes, budget 16 KiB");
    }

    @Test
    void demoRomSnapshotFitsTheBudget() throws Exception {
        Console c = TestRoms.console(Cartridge.parse(lockstep.nes.core.demo.DemoRom.NAME,
                lockstep.nes.core.demo.DemoRom.bytes()));
        for (int i = 0; i < 30; i++) {
            c.runFrame();
        }
        int size = new Snapshots(c).save().length;
        System.out.println("demo ROM snapshot size: " + size + " bytes (mapper " + c.cartridge().mapperNumber()
                + ", CHR-RAM " + (c.cartridge().chr().length == 0) + ")");
        assertTrue(size <= 16 * 1024, "demo snapshot is " + size + " bytes, budget 16 KiB");
    }

    @Test
    void saveAndLoadFitTheBudget() throws Exception {
        Console c = running(3);
        Snapshots s = new Snapshots(c);
        byte[] data = s.save();
        // Warm up, then measure save + load (validation included) of the same state.
        for (int i = 0; i < 20_000; i++) {
            s.saveToBuffer();
            s.load(data);
        }
        int n = 20_000;
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                s.saveToBuffer();
                s.load(data);
            }
            best = Math.min(best, (System.nanoTime() - t0) / n);
        }
        System.out.println("snapshot save+load: " + best / 1000.0 + " us (" + data.length + " bytes)");
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s.saveToBuffer();
        }
        System.out.println("  save alone: " + (System.nanoTime() - t0) / n / 1000.0 + " us");
        CycleDigest d = new CycleDigest(c);
        t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s.load(data);
            d.digest();
        }
        System.out.println("  load + first digest: " + (System.nanoTime() - t0) / n / 1000.0 + " us");
        // The budget is 20 us; the bound here is loose because the test machine is shared.
        assertTrue(best < 200_000, "save+load took " + best + " ns");
    }

    // --- malformed snapshots ---------------------------------------------------------------

    private record Bad(String what, byte[] data, String expect) {
    }

    /** Recomputes the body length and CRC so that only the intended defect remains. */
    private static byte[] resign(byte[] s) {
        byte[] out = s.clone();
        SnapshotFormat.putInt(out, SnapshotFormat.OFF_LENGTH, out.length - SnapshotFormat.HEADER - SnapshotFormat.TRAILER);
        CRC32 crc = new CRC32();
        crc.update(out, 0, out.length - 4);
        SnapshotFormat.putInt(out, out.length - 4, (int) crc.getValue());
        return out;
    }

    private static int indexOf(byte[] data, String name) {
        byte[] n = name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        outer:
        for (int i = SnapshotFormat.HEADER; i + n.length <= data.length; i++) {
            if ((data[i - 1] & 0xFF) != n.length) {
                continue;
            }
            for (int j = 0; j < n.length; j++) {
                if (data[i + j] != n[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("entry " + name + " not found");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static List<Bad> malformed(byte[] good) {
        List<Bad> bad = new ArrayList<>();
        int n = good.length;
        bad.add(new Bad("empty", new byte[0], "empty file"));
        bad.add(new Bad("magic only", Arrays.copyOf(good, 5), "truncated"));
        byte[] magic = good.clone();
        magic[0] = 'X';
        bad.add(new Bad("bad magic", magic, "bad magic"));
        bad.add(new Bad("header only", Arrays.copyOf(good, 40), "truncated"));
        byte[] v2 = good.clone();
        SnapshotFormat.putInt(v2, SnapshotFormat.OFF_VERSION, 2);
        bad.add(new Bad("format version 2", resign(v2), "format version 2"));
        byte[] v0 = good.clone();
        SnapshotFormat.putInt(v0, SnapshotFormat.OFF_VERSION, 0);
        bad.add(new Bad("format version 0", v0, "format version 0"));
        bad.add(new Bad("truncated body", Arrays.copyOf(good, n - 100), "truncated"));
        bad.add(new Bad("truncated trailer", Arrays.copyOf(good, n - 1), "truncated"));
        bad.add(new Bad("trailing garbage", Arrays.copyOf(good, n + 3), "unexpected bytes"));
        for (int bit : new int[] {SnapshotFormat.HEADER * 8 + 3, (n / 2) * 8 + 5, (n - 6) * 8, (n - 1) * 8 + 7,
                SnapshotFormat.OFF_CYCLE * 8 + 63}) {
            byte[] f = good.clone();
            f[bit >> 3] ^= (byte) (1 << (bit & 7));
            bad.add(new Bad("bit " + bit + " flipped", f, "checksum mismatch"));
        }
        byte[] rom = good.clone();
        rom[SnapshotFormat.OFF_ROM + 7] ^= 0x40;
        bad.add(new Bad("another ROM", resign(rom), "another ROM"));
        byte[] renamed = good.clone();
        renamed[indexOf(renamed, "pc")] = 'q';
        bad.add(new Bad("field renamed", resign(renamed), "layout differs"));
        byte[] retagged = good.clone();
        int at = indexOf(retagged, "pc");
        retagged[at - 2] = SnapshotFormat.TAG_I32;
        bad.add(new Bad("field retyped", resign(retagged), "layout differs"));
        byte[] badBool = good.clone();
        at = indexOf(badBool, "strobe");
        badBool[at + "strobe".length()] = 2;
        bad.add(new Bad("bool out of range", resign(badBool), "bool"));
        byte[] arr = good.clone();
        at = indexOf(arr, "prgRam");
        SnapshotFormat.putInt(arr, at + 6, 8191);
        bad.add(new Bad("array length", resign(arr), "elements"));
        byte[] sectionLen = good.clone();
        at = indexOf(sectionLen, "cpu");
        SnapshotFormat.putInt(sectionLen, at + 3, 1_000_000);
        bad.add(new Bad("section length too long", resign(sectionLen), "runs past"));
        byte[] sectionShort = good.clone();
        SnapshotFormat.putInt(sectionShort, at + 3, SnapshotFormat.getInt(good, at + 3) - 1);
        bad.add(new Bad("section length too short", resign(sectionShort), "runs past"));
        byte[] extra = concat(Arrays.copyOf(good, n - 4), new byte[] {SnapshotFormat.TAG_U8, 1, 'z', 5, 0, 0, 0, 0});
        bad.add(new Bad("extra entry", resign(extra), "does not describe"));
        byte[] missing = good.clone();
        at = indexOf(missing, "mapper");
        missing = concat(Arrays.copyOf(good, at - 2), new byte[4]);
        bad.add(new Bad("missing section", resign(missing), "layout differs"));
        bad.add(new Bad("header length too big", withLength(good, n), "truncated"));
        return bad;
    }

    private static byte[] withLength(byte[] good, int length) {
        byte[] out = good.clone();
        SnapshotFormat.putInt(out, SnapshotFormat.OFF_LENGTH, length);
        return out;
    }

    @Test
    void malformedSnapshotsAreRefusedInOneLineAndLeaveTheEngineAsItWas() {
        Console c = running(3);
        Snapshots s = new Snapshots(c);
        byte[] good = s.save();
        // Move on so that a partial load would be visible.
        c.runFrame();
        byte[] before = s.save();
        long digest = new CycleDigest(c).digest();
        List<Bad> cases = malformed(good);
        assertTrue(cases.size() >= 10);
        for (Bad b : cases) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> s.load(b.data(), b.data().length, "x.snap"),
                    b.what());
            String m = e.getMessage();
            assertTrue(m.startsWith("x.snap: "), b.what() + ": " + m);
            assertFalse(m.contains("\n"), b.what() + ": one line: " + m);
            assertTrue(m.contains(b.expect()), b.what() + ": expected '" + b.expect() + "' in: " + m);
            assertArrayEquals(before, s.save(), b.what() + ": engine changed");
            assertEquals(digest, new CycleDigest(c).digest(), b.what() + ": digest changed");
            // The engine-free parser refuses the envelope defects too (layout ones are engine checks).
            if (!m.contains("layout") && !m.contains("another ROM") && !m.contains("elements")
                    && !m.contains("does not describe")) {
                assertThrows(SnapshotException.class, () -> SnapshotFile.parse(b.data(), "x.snap"), b.what());
            }
        }
        // The good one still loads.
        assertDoesNotThrow(() -> s.load(good));
    }

    @Test
    void snapshotOfAnotherCartridgeLayoutIsRefused() {
        Console chrRam = TestRoms.console(new Cartridge("chrram.nes", TestRoms.tiny().prg(), new byte[0], 0,
                Mirroring.VERTICAL, false, 8192, 8192));
        byte[] other = new Snapshots(chrRam).save();
        Snapshots s = new Snapshots(running(1));
        SnapshotException e = assertThrows(SnapshotException.class, () -> s.load(other));
        assertTrue(e.getMessage().contains("another ROM"), e.getMessage());
    }

    @Test
    void fileParsesWithoutAnEngine() throws Exception {
        Console c = running(2);
        byte[] data = new Snapshots(c).save();
        SnapshotFile f = SnapshotFile.parse(data, "x");
        assertEquals(1, f.version());
        assertEquals(c.cycles(), f.cycle());
        assertEquals(c.frame(), f.frame());
        List<StateEntry> live = Describer.describe(c);
        assertEquals(live.size(), f.entries().size());
        for (int i = 0; i < live.size(); i++) {
            assertEquals(live.get(i).path(), f.entries().get(i).path());
            assertTrue(live.get(i).sameValue(f.entries().get(i)), live.get(i).path());
        }
        String json = f.json();
        assertTrue(json.contains("\"cpu\""), json);
        assertTrue(json.contains("\"pc\" : " + c.cpu().pc()), json);
    }

    @Test
    void diffListsFieldsAndArrayRanges() throws Exception {
        Console c = running(2);
        SnapshotFile a = SnapshotFile.parse(new Snapshots(c).save(), "a");
        c.ram().write(0x100, 0xAB);
        c.ram().write(0x101, c.ram().read(0x101) ^ 1);
        c.ram().write(0x200, c.ram().read(0x200) ^ 0xFF);
        c.cpu().setRegisters(c.cpu().a() ^ 1, c.cpu().x(), c.cpu().y(), c.cpu().s(), c.cpu().p());
        SnapshotFile b = SnapshotFile.parse(new Snapshots(c).save(), "b");
        List<String> d = StateDiff.diff(a.entries(), b.entries());
        assertTrue(d.stream().anyMatch(l -> l.startsWith("cpu.a: ")), d.toString());
        assertTrue(d.stream().anyMatch(l -> l.startsWith("console.ram[0x100..0x101]: ")), d.toString());
        assertTrue(d.stream().anyMatch(l -> l.startsWith("console.ram[0x200]: ")), d.toString());
        assertEquals(3, d.size(), d.toString());
        assertTrue(StateDiff.diff(a.entries(), a.entries()).isEmpty());
    }

    @Test
    void aPalOrDendySnapshotRecordsItsRegionAndOnlyLoadsOnThatConsole() throws Exception {
        Cartridge tiny = TestRoms.tiny();
        byte[] ntsc = new Snapshots(TestRoms.console(tiny)).save();
        assertEquals(-1, Snapshots.regionEntry(ntsc, SnapshotFormat.HEADER, ntsc.length - SnapshotFormat.TRAILER),
                "an NTSC snapshot has no region entry");
        for (lockstep.nes.ppu.Region region : new lockstep.nes.ppu.Region[] {
                lockstep.nes.ppu.Region.PAL, lockstep.nes.ppu.Region.DENDY}) {
            Console c = TestRoms.console(tiny.withRegion(region));
            c.runFrame();
            byte[] snap = new Snapshots(c).save();
            List<StateEntry> entries = SnapshotFile.parse(snap, "s").entries();
            StateEntry last = entries.get(entries.size() - 1);
            assertEquals(SnapshotFormat.REGION_ENTRY, last.path());
            Console same = TestRoms.console(tiny.withRegion(region));
            new Snapshots(same).load(snap, snap.length, "s.lss");
            assertArrayEquals(snap, new Snapshots(same).save());
            SnapshotException e = assertThrows(SnapshotException.class,
                    () -> new Snapshots(TestRoms.console(tiny)).load(snap, snap.length, "s.lss"));
            assertEquals("s.lss: snapshot is of a " + region.displayName() + " console, this one is NTSC (run it with"
                    + " --region " + region.id() + ")", e.getMessage());
            assertThrows(SnapshotException.class,
                    () -> new Snapshots(TestRoms.console(tiny.withRegion(region))).load(ntsc, ntsc.length, "n.lss"));
        }
    }
}
