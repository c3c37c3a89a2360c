package lockstep.nes.core.digest;

import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Properties of the representation digest ({@link CycleDigest#representation}: every component
 * as of its own clock, nothing caught up), seeded:
 * <ul>
 * <li>(a) two engines fed the same input have equal representation digests at every cycle for
 *     600 frames (an MMC3 game, the demo, spritecans, the tiny ROM), also with same-value pokes
 *     into one engine at random cycles (its partner revisited at the same cycle, as the
 *     verifier does), which a pair without the revisit tells apart;</li>
 * <li>(b) changing any single described value (every scalar and array element, sampled memory
 *     bytes) of the representation as it stands, PPU and APU behind, changes it;</li>
 * <li>(c) it equals the recomputation from scratch (visitor over the description as
 *     represented, memories rehashed) at random cycles and at every cycle of two frames, and
 *     {@link CycleDigest#digest} once caught up;</li>
 * <li>(d) a snapshot taken mid-frame at a seeded cycle and loaded into a fresh engine gives the
 *     same representation digest at every following cycle for 120 frames (roms-test runs the
 *     same over every manifest ROM).</li>
 * </ul>
 */
class RepresentationDigestTest {
    static final String BLADE_BUSTER = "other/BladeBuster.nes";
    static final String SPRITECANS = "spritecans-2011/spritecans.nes";
    static final String MMC1_A12 = "MMC1_A12/mmc1_a12.nes";

    /** The tiny ROM, the demo, an MMC3 game and spritecans (the shared ones when present). */
    private static List<Cartridge> roms() {
        List<Cartridge> out = new ArrayList<>();
        out.add(TestRoms.tiny());
        try {
            out.add(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        } catch (RomFormatException e) {
            fail("demo ROM: " + e.getMessage());
        }
        out.add(TestRoms.shared(BLADE_BUSTER));
        out.add(TestRoms.shared(SPRITECANS));
        return out;
    }

    /**
     * A state fault that writes the value already there: a reader (like the verifier's
     * FieldPoke) that hits described entry {@code target} and returns it unchanged.
     */
    private static final class SameValuePoke implements StateVisitor {
        private final int target;
        private int index;
        String hit;

        SameValuePoke(int target) {
            this.target = target;
        }

        private <T> T at(String name, T v) {
            if (index++ == target) {
                hit = name;
            }
            return v;
        }

        @Override public boolean isReader() { return true; }
        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String n, boolean v) { return at(n, v); }
        @Override public int u8(String n, int v) { return at(n, v); }
        @Override public int u16(String n, int v) { return at(n, v); }
        @Override public int i32(String n, int v) { return at(n, v); }
        @Override public long i64(String n, long v) { return at(n, v); }
        @Override public void bytes(String n, byte[] a) { at(n, a); }
        @Override public void ints(String n, int[] a) { at(n, a); }
    }

    private static int entryCount(Console c) {
        SameValuePoke count = new SameValuePoke(-1);
        c.representation(new StateVisitor() {
            @Override public void beginSection(String name) { }
            @Override public void endSection() { }
            @Override public boolean bool(String n, boolean v) { count.index++; return v; }
            @Override public int u8(String n, int v) { count.index++; return v; }
            @Override public int u16(String n, int v) { count.index++; return v; }
            @Override public int i32(String n, int v) { count.index++; return v; }
            @Override public long i64(String n, long v) { count.index++; return v; }
            @Override public void bytes(String n, byte[] a) { count.index++; }
            @Override public void ints(String n, int[] a) { count.index++; }
        });
        return count.index;
    }

    // ---- (a)

    @TestFactory
    Stream<DynamicTest> twoEnginesFedTheSameInputHaveEqualRepresentationDigestsEveryCycle() {
        return ParallelChecks.perRom("representation-digest", roms(), cart -> () -> {
            int frames = 600;
            Console a = TestRoms.console(cart);
            Console b = TestRoms.console(cart);
            CycleDigest da = new CycleDigest(a);
            CycleDigest db = new CycleDigest(b);
            Random r = new Random(cart.name().hashCode());
            int entries = entryCount(a);
            // Same-value pokes into engine A (its partner revisited) at 40 seeded cycles.
            long[] pokes = new long[40];
            for (int i = 0; i < pokes.length; i++) {
                pokes[i] = 1 + r.nextInt(frames * 29_780);
            }
            Arrays.sort(pokes);
            int next = 0;
            int poked = 0;
            long cycles = 0;
            for (int f = 0; f < frames; f++) {
                SeededInput.bothPorts(r, a, b);
                long frame = a.frameAfterCycle();
                while (a.frameAfterCycle() == frame) {
                    a.runCycle();
                    b.runCycle();
                    cycles++;
                    while (next < pokes.length && pokes[next] <= a.cycles()) {
                        next++;
                        SameValuePoke poke = new SameValuePoke(r.nextInt(entries));
                        a.state(poke);
                        assertNotNull(poke.hit);
                        b.revisit();
                        poked++;
                    }
                    if (da.representation() != db.representation()) {
                        fail(cart.name() + ": representation digests differ at cycle " + a.cycles() + " (frame " + f
                                + ", " + poked + " same-value pokes so far)");
                    }
                }
            }
            assertEquals(pokes.length, poked);
            assertTrue(cycles > frames * 29_000L, "ran " + cycles + " cycles");
            a.catchUp();
            b.catchUp();
            assertEquals(da.digest(), da.representation());
            assertEquals(da.digest(), db.digest());
        });
    }

    /**
     * Without the partner's revisit a same-value poke leaves the two engines represented apart
     * (one caught up, the other not) while their states are equal: why the verifier revisits.
     */
    @Test
    void aSameValuePokeWithoutTheRevisitIsToldApart() {
        Cartridge cart = roms().get(1);
        Console a = TestRoms.console(cart);
        Console b = TestRoms.console(cart);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        Random r = new Random(5);
        int apart = 0;
        for (int i = 0; i < 20; i++) {
            for (int k = r.nextInt(20_000); k >= 0; k--) {
                a.runCycle();
                b.runCycle();
            }
            assertEquals(da.representation(), db.representation());
            a.state(new SameValuePoke(0));
            if (da.representation() != db.representation()) {
                apart++;
            }
            assertEquals(da.digest(), db.digest(), "equal states"); // catches both up
            assertEquals(da.representation(), db.representation());
        }
        assertTrue(apart >= 10, "represented apart after " + apart + " of 20 pokes");
    }

    // ---- (b)

    @Test
    void changingAnySingleDescribedValueChangesTheRepresentationDigest() {
        int checked = 0;
        for (Cartridge cart : List.of(roms().get(0), roms().get(2))) {
            Console c = TestRoms.console(cart);
            CycleDigest d = new CycleDigest(c); // (its layout seed comes from a visit, which catches up)
            for (int f = 0; f < 5; f++) {
                c.runFrame();
            }
            // Mid-frame, with the PPU and APU behind the CPU (nothing catches them up here).
            for (int i = 0; i < 12_345; i++) {
                c.runCycle();
            }
            assertTrue(c.apu().syncedCycle() < c.cycles(), "APU behind");
            final long original = d.representation();
            assertEquals(original, d.recomputeRepresentation());
            BitFlip probe = new BitFlip(-1, 0);
            c.representation(probe);
            int n = probe.count();
            assertTrue(n > 100, "entries: " + n);
            Random r = new Random(7);
            for (int target = 0; target < n; target++) {
                for (int sample = 0; sample < 8; sample++) {
                    int bit = r.nextInt(31);
                    BitFlip m = new BitFlip(target, bit);
                    c.representation(m);
                    long changed = d.representation();
                    assertNotEquals(original, changed, cart.name() + ": changing " + m.changed
                            + " left the representation digest unchanged");
                    assertEquals(d.recomputeRepresentation(), changed, m.changed);
                    c.representation(new BitFlip(target, bit)); // the same flip again restores it
                    assertEquals(original, d.representation(), "restored after " + m.changed);
                    assertTrue(c.apu().syncedCycle() < c.cycles(), cart.name() + ": caught up by changing " + m.changed);
                    checked++;
                    if (m.changed == null || !m.changed.contains("[")) {
                        break;
                    }
                }
            }
            assertTrue(c.apu().syncedCycle() < c.cycles(), "still behind: nothing was caught up");
        }
        assertTrue(checked > 400, "checked " + checked);
    }

    // ---- (c)

    @Test
    void representationDigestEqualsItsRecomputationAndTheDigestOnceCaughtUp() {
        List<Cartridge> carts = new ArrayList<>(DigestPropertiesTest.bootable());
        carts.add(TestRoms.shared(BLADE_BUSTER));
        carts.add(TestRoms.shared(SPRITECANS));
        carts.add(TestRoms.shared(MMC1_A12));
        for (Cartridge cart : carts) {
            Console c = TestRoms.console(cart);
            CycleDigest d = new CycleDigest(c);
            Random r = new Random(cart.name().hashCode() + 3);
            int behind = 0;
            for (int i = 0; i < 60; i++) {
                int skip = r.nextInt(40_000);
                if (i % 10 == 0) {
                    c.setButtons(0, r.nextInt(256));
                }
                for (int k = 0; k < skip; k++) {
                    c.runCycle();
                }
                if (c.apu().syncedCycle() < c.cycles()) {
                    behind++;
                }
                assertEquals(d.recomputeRepresentation(), d.representation(), cart.name() + " at cycle " + c.cycles());
                if (i % 3 == 0) {
                    c.catchUp();
                    assertEquals(d.digest(), d.representation(), cart.name() + " caught up at cycle " + c.cycles());
                }
            }
            assertTrue(behind > 0, cart.name() + ": never behind");
        }
    }

    /**
     * The cached fast path at every cycle of two frames: engine A's representation digest (its
     * caches as they are) against the recomputation from scratch on its twin B, fed the same
     * input (the recomputation's visit drops B's caches, not A's; it moves no deadline, so B stays
     * A's twin).
     */
    @TestFactory
    Stream<DynamicTest> cachedRepresentationEqualsTheRecomputationAtEveryCycle() {
        List<Cartridge> carts = roms();
        carts.add(TestRoms.shared(MMC1_A12)); // MMC1's and MMC3's terms move with the clock
        return ParallelChecks.perRom("representation-digest", carts, cart -> () -> {
            Console a = TestRoms.console(cart);
            Console b = TestRoms.console(cart);
            CycleDigest da = new CycleDigest(a);
            CycleDigest db = new CycleDigest(b);
            Random r = new Random(cart.name().hashCode() + 11);
            int start = 30 + r.nextInt(60);
            for (int f = 0; f < start + 2; f++) {
                SeededInput.port0(r, a, b);
                long frame = a.frameAfterCycle();
                while (a.frameAfterCycle() == frame) {
                    a.runCycle();
                    b.runCycle();
                    if (f >= start) {
                        long fast = da.representation();
                        long reference = db.recomputeRepresentation();
                        if (fast != reference) {
                            fail(cart.name() + ": cached representation digest differs from the recomputation at cycle "
                                    + a.cycles());
                        }
                    }
                }
            }
        });
    }

    // ---- (d)

    /**
     * Runs {@code cart} {@code start} frames and {@code mid} cycles, saves, loads into a fresh
     * engine, and compares the representation digests of the two at every cycle for
     * {@code frames} frames with the same seeded input; returns the failure or null.
     * {@code input} applies frame {@code f}'s input to a console (both engines get the same).
     */
    static String snapshotContinues(Cartridge cart, Console a, int frames, java.util.function.ObjIntConsumer<Console> input,
            int firstFrame) {
        byte[] snap = new Snapshots(a).save();
        final long at = a.cycles();
        Console b;
        try {
            b = Console.create(cart);
            new Snapshots(b).load(snap);
        } catch (RomFormatException | SnapshotException e) {
            return e.getMessage();
        }
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        if (da.representation() != db.representation()) {
            return "representation digests differ right after loading at cycle " + a.cycles();
        }
        for (int f = 0; f < frames; f++) {
            input.accept(a, firstFrame + f);
            input.accept(b, firstFrame + f);
            long frame = a.frameAfterCycle();
            while (a.frameAfterCycle() == frame) {
                a.runCycle();
                b.runCycle();
                if (da.representation() != db.representation()) {
                    return "representation digest differs at cycle " + a.cycles() + ", " + f
                            + " frames after loading a snapshot taken at cycle " + at;
                }
            }
        }
        if (!Arrays.equals(new Snapshots(a).save(), new Snapshots(b).save())) {
            return "snapshots differ after " + frames + " frames";
        }
        return null;
    }

    @TestFactory
    Stream<DynamicTest> snapshotTakenMidFrameContinuesWithTheSameRepresentationDigest() {
        List<Cartridge> carts = new ArrayList<>(DigestPropertiesTest.bootable());
        carts.add(TestRoms.shared(BLADE_BUSTER));
        carts.add(TestRoms.shared(SPRITECANS));
        return ParallelChecks.perRom("representation-digest", carts, cart -> () -> {
            Random r = new Random(4321 + cart.name().length());
            Console a = TestRoms.console(cart);
            SeededInput.Stop stop = SeededInput.runIntoAFrame(r, a);
            long seed = r.nextLong();
            String failure = snapshotContinues(cart, a, 120, (c, f) -> c.setButtons(0, SeededInput.buttons(new Random(seed + f))), 0);
            assertNull(failure, cart.name() + " (snapshot at cycle " + stop.cycles() + " of frame " + stop.frames() + ")");
        });
    }
}
