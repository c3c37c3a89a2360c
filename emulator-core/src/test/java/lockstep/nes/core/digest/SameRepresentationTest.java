package lockstep.nes.core.digest;

import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.Describer;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.state.Memory;
import lockstep.nes.core.chain.RepresentationTerm;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * The lockstep verifier's per-cycle check ({@link CycleDigest#differsFrom}, through
 * {@link RepresentationTerm#sameAs}) says "different" exactly when the digests differ:
 * <ul>
 * <li>no described value can change alone without the representations differing (each entry of
 *     the description, set alone to another value, in several machine states);</li>
 * <li>over whole runs with a fault injected at a seeded random cycle and entry, with one
 *     engine's lazily stepped PPU caught up at random extra moments, and with either engine's
 *     cached digest terms refreshed by someone else at random moments, a pair checked with it finds
 *     its first divergence at the same cycle as a pair checked by comparing digests, and a pair
 *     without a fault never diverges.</li>
 * </ul>
 */
class SameRepresentationTest {

    /** Flips the low bit of the described entry {@code target} (of a memory: one seeded byte). */
    private static final class FlipOne implements StateVisitor {
        private final int target;
        private final int memoryIndexSeed;
        private int index;
        String hit;

        FlipOne(int target, int memoryIndexSeed) {
            this.target = target;
            this.memoryIndexSeed = memoryIndexSeed;
        }

        private boolean mine(String name) {
            if (index++ == target) {
                hit = name;
                return true;
            }
            return false;
        }

        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean isReader() { return true; }
        @Override public boolean bool(String n, boolean v) { return mine(n) != v; }
        @Override public int u8(String n, int v) { return mine(n) ? v ^ 1 : v; }
        @Override public int u16(String n, int v) { return mine(n) ? v ^ 1 : v; }
        @Override public int i32(String n, int v) { return mine(n) ? v ^ 1 : v; }
        @Override public long i64(String n, long v) { return mine(n) ? v ^ 1 : v; }
        @Override public void bytes(String n, byte[] a) {
            for (int i = 0; i < a.length; i++) {
                if (mine(n + "[" + i + "]")) {
                    a[i] ^= 1;
                }
            }
        }
        @Override public void ints(String n, int[] a) {
            for (int i = 0; i < a.length; i++) {
                if (mine(n + "[" + i + "]")) {
                    a[i] ^= 1;
                }
            }
        }
        @Override public void memory(Memory m) {
            if (mine(m.name())) {
                int i = Math.floorMod(memoryIndexSeed * 7919, m.size());
                m.write(i, m.read(i) ^ 1);
            }
        }
    }

    private static int entries(Console c) {
        FlipOne count = new FlipOne(-1, 0);
        c.state(count);
        return count.index;
    }

    /** Two consoles of one cartridge, run identically to {@code cycles} past power-on. */
    private static Console[] pair(Cartridge cart, long cycles) {
        Console a = TestRoms.console(cart);
        Console b = TestRoms.console(cart);
        while (a.cycles() < cycles) {
            a.runCycle();
            b.runCycle();
        }
        return new Console[] {a, b};
    }

    @Test
    void everyDescribedEntryChangedAloneMakesTheRepresentationsDiffer() throws Exception {
        List<Cartridge> carts = new ArrayList<>(DigestPropertiesTest.bootable().subList(0, 2));
        int checked = 0;
        for (Cartridge cart : carts) {
            for (long at : new long[] {1_000, 200_000, 431_117}) {
                Console[] p = pair(cart, at);
                Console a = p[0];
                Console b = p[1];
                RepresentationTerm ra = new RepresentationTerm(a);
                RepresentationTerm rb = new RepresentationTerm(b);
                a.frame(); // both PPUs caught up: only the changed entry differs
                b.frame();
                assertTrue(ra.sameAs(rb), cart.name() + " at " + at + ": equal consoles");
                int n = entries(a);
                Snapshots snapshots = new Snapshots(b);
                byte[] saved = snapshots.save();
                int changed = 0;
                for (int target = 0; target < n; target++) {
                    FlipOne flip = new FlipOne(target, target + (int) at);
                    b.state(flip);
                    CycleDigest da = new CycleDigest(a);
                    CycleDigest db = new CycleDigest(b);
                    boolean digestsDiffer = da.reference() != db.reference();
                    if (digestsDiffer) {
                        changed++;
                        assertFalse(ra.sameAs(rb), cart.name() + " at " + at + ": entry " + target + " ("
                                + flip.hit + ") changed alone but the representations compare equal");
                        assertTrue(da.differsFrom(db), cart.name() + ": differsFrom, entry " + flip.hit);
                    }
                    // Back (a snapshot: a changed clock may have made B's PPU catch up since).
                    snapshots.load(saved, saved.length, "saved");
                    assertEquals(new CycleDigest(a).reference(), new CycleDigest(b).reference(), "restored " + flip.hit);
                    assertTrue(ra.sameAs(rb), cart.name() + ": equal again after restoring " + flip.hit);
                    checked++;
                }
                // Only derived tables rebuilt on load (bank pages) may ignore a change.
                assertTrue(changed > n * 9 / 10, cart.name() + ": only " + changed + " of " + n + " entries took effect");
            }
        }
        assertTrue(checked > 500, "entries checked: " + checked);
    }

    /** Sets one described entry to a value (all others kept). */
    private static final class SetOne implements StateVisitor {
        private final int target;
        private final long value;
        private int index;

        SetOne(int target, long value) {
            this.target = target;
            this.value = value;
        }

        private boolean mine() {
            return index++ == target;
        }

        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean isReader() { return true; }
        @Override public boolean bool(String n, boolean v) { return mine() ? (value & 1) != 0 : v; }
        @Override public int u8(String n, int v) { return mine() ? (int) (value & 0xFF) : v; }
        @Override public int u16(String n, int v) { return mine() ? (int) (value & 0xFFFF) : v; }
        @Override public int i32(String n, int v) { return mine() ? (int) (value & 0x7F) : v; }
        @Override public long i64(String n, long v) { return mine() ? v + (value & 3) : v; }
        @Override public void bytes(String n, byte[] a) {
            for (int i = 0; i < a.length; i++) {
                if (mine()) {
                    a[i] = (byte) value;
                }
            }
        }
        @Override public void ints(String n, int[] a) {
            for (int i = 0; i < a.length; i++) {
                if (mine()) {
                    a[i] = (int) (value & 0x7F);
                }
            }
        }
        @Override public void memory(Memory m) {
            if (mine()) {
                m.write((int) ((value >>> 8) % m.size()), (int) value);
            }
        }
    }

    /** The first cycle (after the fault) at which the pair is found different, or -1. */
    private static long firstDivergence(Cartridge cart, long faultCycle, int entry, long value, boolean byDigests,
                                        long seed, long until) {
        Console[] p = pair(cart, 0);
        Console a = p[0];
        Console b = p[1];
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        Random r = new Random(seed);
        while (a.cycles() < until) {
            a.runCycle();
            b.runCycle();
            if (a.cycles() == faultCycle && entry >= 0) {
                b.state(new SetOne(entry, value));
            }
            if (!byDigests && r.nextInt(500) == 0) {
                a.ppu(); // A's PPU caught up at a moment B's is not: equal states, other representations
            }
            if (!byDigests && r.nextInt(700) == 0) {
                consumeDigestCaches(r.nextBoolean() ? a : b);
            }
            boolean differ = byDigests ? da.digest() != db.digest() : da.differsFrom(db);
            if (differ) {
                return a.cycles();
            }
        }
        return -1;
    }

    /**
     * Describes {@code c} (which catches its lazily stepped parts up and marks every cached term
     * stale) and takes every component's term directly, as a digest of a part would: the caches
     * the per-cycle check keeps must notice that someone else refreshed them.
     */
    private static void consumeDigestCaches(Console c) {
        Describer d = new Describer();
        c.state(d);
        for (Describer.Visited v : d.visited()) {
            if (v.component() instanceof lockstep.nes.state.Digestible f) {
                f.digestTerm();
            }
        }
    }

    @Test
    void aPairCheckedByRepresentationsDivergesAtTheSameCycleAsByDigests() {
        List<Cartridge> carts = new ArrayList<>(DigestPropertiesTest.bootable().subList(0, 2));
        java.nio.file.Path dir = TestRoms.romsDir();
        if (dir != null) {
            for (String rom : new String[] {"ppu_vbl_nmi/ppu_vbl_nmi.nes", "apu_test/apu_test.nes",
                "sprite_hit_tests_2005.10.05/09.timing_basics.nes", "mmc3_test_2/rom_singles/4-scanline_timing.nes"}) {
                if (java.nio.file.Files.isRegularFile(dir.resolve("nes-test-roms").resolve(rom))) {
                    carts.add(TestRoms.shared(rom));
                }
            }
        }
        int diverged = 0;
        int cases = 0;
        for (Cartridge cart : carts) {
            Random r = new Random(cart.name().hashCode());
            int n = entries(TestRoms.console(cart));
            // No fault: never different, whatever the catch-up moments.
            assertEquals(-1, firstDivergence(cart, -1, -1, 0, false, r.nextLong(), 6 * 29_781),
                    cart.name() + ": equal engines reported different");
            for (int k = 0; k < 6; k++) {
                long faultCycle = 20_000 + r.nextInt(120_000);
                int entry = r.nextInt(n);
                long value = r.nextLong();
                long until = faultCycle + 20_000;
                long seed = r.nextLong();
                long byDigests = firstDivergence(cart, faultCycle, entry, value, true, seed, until);
                long byRepresentations = firstDivergence(cart, faultCycle, entry, value, false, seed, until);
                assertEquals(byDigests, byRepresentations,
                        cart.name() + ": entry " + entry + " set at cycle " + faultCycle);
                cases++;
                if (byDigests >= 0) {
                    diverged++;
                }
            }
        }
        assertTrue(diverged > cases / 3, "only " + diverged + " of " + cases + " faults made a difference");
    }
}
