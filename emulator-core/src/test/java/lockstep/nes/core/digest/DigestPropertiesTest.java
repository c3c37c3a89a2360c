package lockstep.nes.core.digest;

import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.ppu.Region;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Properties of the per-cycle digest (seeded, so every run checks the same cases). The two
 * lockstep properties run their ROMs on one thread per core (each ROM's check is independent
 * and deterministic), so the suite takes about half the time on the 2-core build machine.
 */
class DigestPropertiesTest {
    /** ROMs the digest properties run over (those whose mapper this build supports). */
    static final String[] ROMS = {
        "other/nestest.nes",
        "instr_misc/instr_misc.nes",
        "cpu_timing_test6/cpu_timing_test.nes",
        "branch_timing_tests/1.Branch_Basics.nes",
        "cpu_dummy_reads/cpu_dummy_reads.nes",
        "blargg_nes_cpu_test5/official.nes",
    };

    /** A PAL ROM of the collection (a plain iNES file: run as PAL). */
    static final String PAL_ROM = "nes15-1.0.0/nes15-PAL.nes";

    /**
     * The tiny built-in ROM, then every shared ROM of {@link #ROMS} that exists and boots, then
     * the other regions: {@link #PAL_ROM} on a PAL console and the demo ROM on a Dendy.
     */
    static List<Cartridge> bootable() {
        List<Cartridge> out = new ArrayList<>();
        out.add(TestRoms.tiny());
        try {
            out.add(Cartridge.parse(lockstep.nes.core.demo.DemoRom.NAME, lockstep.nes.core.demo.DemoRom.bytes()));
        } catch (RomFormatException e) {
            fail("demo ROM: " + e.getMessage());
        }
        java.nio.file.Path dir = TestRoms.romsDir();
        if (dir == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("test ROMs not found (set -Dlockstep.roms or LOCKSTEP_ROMS)");
            }
            System.out.println("digest properties: shared ROMs not found, only the built-in ROM is used");
            return out;
        }
        for (String r : ROMS) {
            java.nio.file.Path p = dir.resolve("nes-test-roms").resolve(r);
            try {
                Cartridge c = Cartridge.load(p);
                Console.create(c);
                out.add(c);
            } catch (RomFormatException e) {
                System.out.println("digest properties: skipping " + r + ": " + e.getMessage());
            }
        }
        try {
            out.add(Cartridge.load(dir.resolve("nes-test-roms").resolve(PAL_ROM)).withRegion(Region.PAL));
            out.add(Cartridge.parse(lockstep.nes.core.demo.DemoRom.NAME, lockstep.nes.core.demo.DemoRom.bytes())
                    .withRegion(Region.DENDY));
        } catch (RomFormatException e) {
            fail(PAL_ROM + ": " + e.getMessage());
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> twoEnginesFedTheSameInputAgreeEveryCycle() {
        List<Cartridge> roms = bootable();
        // 600 frames for the tiny and demo ROMs and nestest, 120 for the rest (test time on 2 cores).
        return ParallelChecks.perRom("digest-properties", roms, cart -> () -> {
            int frames = roms.indexOf(cart) < 3 ? 600 : 120;
            Console a = TestRoms.console(cart);
            Console b = TestRoms.console(cart);
            CycleDigest da = new CycleDigest(a);
            CycleDigest db = new CycleDigest(b);
            Random input = new Random(42);
            long cycles = 0;
            for (int f = 0; f < frames; f++) {
                SeededInput.bothPorts(input, a, b);
                long frame = a.frame();
                while (a.frame() == frame) {
                    a.runCycle();
                    b.runCycle();
                    cycles++;
                    long x = da.digest();
                    long y = db.digest();
                    if (x != y) {
                        fail(cart.name() + ": digests differ at cycle " + a.cycles() + " (frame " + f + ")");
                    }
                }
            }
            assertEquals(a.cycles(), b.cycles());
            assertTrue(cycles > frames * 29_000L, "ran " + cycles + " cycles");
        });
    }

    @Test
    void changingAnySingleDescribedValueChangesTheDigest() {
        Console c = TestRoms.console(TestRoms.tiny());
        for (int f = 0; f < 3; f++) {
            c.runFrame();
        }
        Snapshots snaps = new Snapshots(c);
        byte[] base = snaps.save();
        CycleDigest d = new CycleDigest(c);
        long original = d.digest();
        BitFlip probe = new BitFlip(-1, 0);
        c.state(probe);
        int n = probe.count();
        assertTrue(n > 40, "entries: " + n);
        Random r = new Random(7);
        int checked = 0;
        for (int target = 0; target < n; target++) {
            // Every scalar and array element once; each memory with several sampled bytes and bits.
            for (int sample = 0; sample < 8; sample++) {
                BitFlip m = new BitFlip(target, r.nextInt(31));
                c.state(m);
                long changed = d.digest();
                assertNotEquals(original, changed, "changing " + m.changed + " left the digest unchanged");
                assertEquals(changed, d.recompute(), m.changed);
                checked++;
                try {
                    snaps.load(base);
                } catch (SnapshotException e) {
                    throw new AssertionError(e.getMessage());
                }
                assertEquals(original, d.digest(), "restored after " + m.changed);
                if (m.changed == null || !m.changed.contains("[")) {
                    break;
                }
            }
        }
        assertTrue(checked >= n);
    }

    @Test
    void incrementalDigestEqualsRecomputationAtRandomCycles() {
        for (Cartridge cart : bootable()) {
            Console c = TestRoms.console(cart);
            CycleDigest d = new CycleDigest(c);
            Random r = new Random(cart.name().hashCode());
            for (int i = 0; i < 60; i++) {
                int skip = r.nextInt(40_000);
                if (i % 10 == 0) {
                    c.setButtons(0, r.nextInt(256));
                }
                for (int k = 0; k < skip; k++) {
                    c.runCycle();
                }
                assertEquals(d.recompute(), d.digest(), cart.name() + " at cycle " + c.cycles());
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> snapshotTakenMidFrameContinuesIdenticallyInAFreshEngine() {
        return ParallelChecks.perRom("digest-properties", bootable(), cart -> () -> {
            Random r = new Random(1234 + cart.name().length());
            Console a = TestRoms.console(cart);
            SeededInput.Stop stop = SeededInput.runIntoAFrame(r, a);
            byte[] snap = new Snapshots(a).save();
            Console b = TestRoms.console(cart);
            try {
                new Snapshots(b).load(snap);
            } catch (SnapshotException e) {
                throw new AssertionError(e.getMessage(), e);
            }
            CycleDigest da = new CycleDigest(a);
            CycleDigest db = new CycleDigest(b);
            assertEquals(da.digest(), db.digest(), "right after loading at cycle " + a.cycles());
            for (int f = 0; f < 120; f++) {
                SeededInput.port0(r, a, b);
                long frame = a.frame();
                while (a.frame() == frame) {
                    a.runCycle();
                    b.runCycle();
                    if (da.digest() != db.digest()) {
                        fail(cart.name() + ": digest differs at cycle " + a.cycles() + ", " + f
                                + " frames after loading a snapshot taken at cycle " + stop.cycles() + " of frame " + stop.frames());
                    }
                }
            }
            assertArrayEquals(new Snapshots(a).save(), new Snapshots(b).save());
        });
    }
}
