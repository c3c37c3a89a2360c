package lockstep.nes.core.digest;

import lockstep.nes.state.Describer;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * The digest's fast paths ({@link Digestible#digestTerm}) equal the description-defined term
 * ({@link DigestTerm}) of every component: at seeded random cycles of several ROMs, after
 * random values are loaded into every described field at once, after each described field alone
 * is set to extreme values, and on every mapper board running random code (which also checks
 * that a board's cached register term is refreshed whenever its registers change). A field added
 * to a {@code state()} method but forgotten in its fast path fails here.
 */
class DigestFastPathTest {

    /** Every component of {@code c} with a fast path: fast term equals the reference term. */
    private static void assertFastEqualsReference(Console c, String where) {
        DigestTerm reference = new DigestTerm();
        Describer d = new Describer();
        c.state(d);
        List<String> wrong = new ArrayList<>();
        for (Describer.Visited v : d.visited()) {
            if (v.component() instanceof Digestible f && f.digestTerm() != reference.term(f, false)) {
                wrong.add(v.path() + " (" + f.getClass().getSimpleName() + ")");
            }
        }
        if (!wrong.isEmpty()) {
            fail(where + ": the fast digest term of " + String.join(", ", wrong) + " differs from the description"
                    + " (a field missing from digestTerm(): see DigestFastPathSource; or a cached term not refreshed)");
        }
        CycleDigest cd = new CycleDigest(c);
        assertEquals(cd.reference(), cd.digest(), where + ": console");
    }

    /** Loads random (or, for {@link #target} only, extreme) values into described fields. */
    private static final class RandomLoad implements StateVisitor {
        private final Random r;
        private final int target;
        private final long pattern;
        private int index;
        String hit;

        /** @param target the entry to set (all when negative); @param pattern its value bits */
        RandomLoad(Random r, int target, long pattern) {
            this.r = r;
            this.target = target;
            this.pattern = pattern;
        }

        private long next(String name) {
            int i = index++;
            if (target < 0) {
                return r.nextLong();
            }
            if (i == target) {
                hit = name;
                return pattern;
            }
            return Long.MIN_VALUE; // keep
        }

        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean isReader() { return true; }

        @Override public boolean bool(String n, boolean v) {
            long x = next(n);
            return x == Long.MIN_VALUE ? v : (x & 1) != 0;
        }
        @Override public int u8(String n, int v) {
            long x = next(n);
            return x == Long.MIN_VALUE ? v : (int) (x & 0xFF);
        }
        @Override public int u16(String n, int v) {
            long x = next(n);
            return x == Long.MIN_VALUE ? v : (int) (x & 0xFFFF);
        }
        @Override public int i32(String n, int v) {
            long x = next(n);
            return x == Long.MIN_VALUE ? v : (int) x;
        }
        @Override public long i64(String n, long v) {
            if (target < 0 && (n.equals("masterClock") || n.equals("ppuClock"))) {
                // The console's two clocks stay coherent: their difference is how far the lazily
                // stepped PPU must catch up before anyone looks, and random clocks would have the
                // digest run the PPU for billions of dots of random state.
                index++;
                return v;
            }
            long x = next(n);
            return x == Long.MIN_VALUE ? v : x;
        }
        @Override public void bytes(String n, byte[] a) {
            for (int i = 0; i < a.length; i++) {
                long x = next(n);
                if (x != Long.MIN_VALUE) {
                    a[i] = (byte) x;
                }
            }
        }
        @Override public void ints(String n, int[] a) {
            for (int i = 0; i < a.length; i++) {
                long x = next(n);
                if (x != Long.MIN_VALUE) {
                    a[i] = (int) x;
                }
            }
        }
        @Override public void memory(Memory m) {
            long x = next(m.name());
            if (x != Long.MIN_VALUE) {
                int i = (int) Math.floorMod(x, (long) m.size());
                m.write(i, (int) (x >>> 32));
            }
        }
    }

    /**
     * ROMs that exercise the cached parts of the fast path: APU registers and frame counter,
     * DMC DMA and OAM DMA, controller reads, MMC1/MMC3 boards, PPU registers, open bus, read
     * buffer, vblank/NMI, sprite 0 hit and overflow; plus the digest property ROMs.
     */
    static final String[] EVENT_ROMS = {
        "apu_test/apu_test.nes",
        "blargg_apu_2005.07.30/10.len_halt_timing.nes",
        "dmc_tests/status_irq.nes",
        "dmc_dma_during_read4/dma_4016_read.nes",
        "sprdma_and_dmc_dma/sprdma_and_dmc_dma.nes",
        "read_joy3/thorough_test.nes",
        "mmc3_test_2/rom_singles/4-scanline_timing.nes",
        "MMC1_A12/mmc1_a12.nes",
        "ppu_open_bus/ppu_open_bus.nes",
        "ppu_read_buffer/test_ppu_read_buffer.nes",
        "ppu_vbl_nmi/ppu_vbl_nmi.nes",
        "sprite_hit_tests_2005.10.05/09.timing_basics.nes",
        "sprite_overflow_tests/3.Timing.nes",
    };

    /**
     * The tiny and demo ROMs and {@link #EVENT_ROMS} (the CPU test ROMs of the digest
     * properties compare the fast digest with a recomputation at random cycles already).
     */
    private static List<Cartridge> roms() {
        List<Cartridge> out = new ArrayList<>(DigestPropertiesTest.bootable().subList(0, 2));
        java.nio.file.Path dir = TestRoms.romsDir();
        if (dir != null) {
            for (String r : EVENT_ROMS) {
                java.nio.file.Path p = dir.resolve("nes-test-roms").resolve(r);
                if (java.nio.file.Files.isRegularFile(p)) {
                    out.add(TestRoms.shared(r));
                } else {
                    System.out.println("digest fast path: missing " + r);
                }
            }
        }
        return out;
    }

    @Test
    void fastPathsEqualTheDescriptionEveryCycleOfSeveralRoms() {
        for (Cartridge cart : roms()) {
            // Visiting a description marks the components' cached terms stale, so the fast digest
            // is taken of a twin that is never visited: its caches live as long as in a real run.
            Console c = TestRoms.console(cart);
            Console twin = TestRoms.console(cart);
            CycleDigest cd = new CycleDigest(c);
            CycleDigest fast = new CycleDigest(twin);
            Random r = new Random(cart.name().hashCode() * 31L);
            // Every cycle of the first frames (power-on, init) and of frames 16-31 (tests running:
            // e.g. the MMC3 tests clock the IRQ counter from frame 17).
            for (int f = 0; f < 32; f++) {
                int buttons = r.nextInt(4) == 0 ? r.nextInt(256) : 0;
                c.setButtons(0, buttons);
                twin.setButtons(0, buttons);
                long frame = c.frame();
                boolean check = f < 4 || f >= 16;
                while (c.frame() == frame) {
                    c.runCycle();
                    twin.runCycle();
                    if (check && fast.digest() != cd.reference()) {
                        fail(cart.name() + ": the fast digest (caches kept) differs from the description at cycle "
                                + c.cycles() + " (a cached term not refreshed when its fields changed?)");
                    }
                }
            }
            assertFastEqualsReference(c, cart.name() + " after 32 frames");
        }
    }

    @Test
    void fastPathsEqualTheDescriptionAfterRandomValuesInEveryField() {
        Console c = TestRoms.console(TestRoms.tiny());
        c.runFrame();
        Random r = new Random(99);
        for (int round = 0; round < 50; round++) {
            c.state(new RandomLoad(r, -1, 0));
            assertFastEqualsReference(c, "random state " + round);
        }
    }

    @Test
    void fastPathsSeeEachFieldAloneAtExtremeValues() {
        Console c = TestRoms.console(TestRoms.tiny());
        c.runFrame();
        RandomLoad count = new RandomLoad(new Random(0), Integer.MAX_VALUE, 0);
        c.state(count);
        int n = count.index;
        long[] patterns = {-1L, 1L, 0x8000_0000_8000_0080L, 0x5555_5555_5555_5555L, 0};
        for (int target = 0; target < n; target++) {
            for (long p : patterns) {
                RandomLoad load = new RandomLoad(null, target, p);
                c.state(load);
                assertFastEqualsReference(c, "entry " + target + " (" + load.hit + ") = " + Long.toHexString(p));
            }
        }
    }

    @Test
    void everyMapperBoardRunningRandomCodeKeepsItsFastTermExact() {
        everyBoardKeepsItsFastTermExact(lockstep.nes.core.RandomCodeCarts::cart, 30_000);
    }

    /**
     * The same with a register write every few hundred cycles, so that the IRQ counters that
     * boards step on CPU cycles or PPU fetches run (their part of the term is packed afresh
     * every time, the rest cached between writes). Leaving the counter out of a board's hot
     * term fails here.
     */
    @Test
    void everyMapperBoardWritingItsRegistersOftenKeepsItsFastTermExact() {
        everyBoardKeepsItsFastTermExact(lockstep.nes.core.RandomCodeCarts::cartWithRegisterWrites, 60_000);
    }

    /** Draws a board's cartridge of random code: mapper number, CHR-RAM or not, the draw. */
    private interface RandomCart {
        Cartridge cart(int number, boolean chrRam, Random r);
    }

    private static void everyBoardKeepsItsFastTermExact(RandomCart carts, int cycles) {
        int boards = 0;
        for (int number = 0; number < 256; number++) {
            for (boolean chrRam : new boolean[] {false, true}) {
                Random r = new Random(number * 2 + (chrRam ? 1 : 0));
                Cartridge cart = carts.cart(number, chrRam, r);
                Console c;
                Console twin;
                try {
                    c = Console.create(cart);
                    twin = Console.create(cart);
                } catch (RomFormatException e) {
                    continue;
                }
                boards++;
                CycleDigest cd = new CycleDigest(c);
                CycleDigest fast = new CycleDigest(twin); // never visited: its caches live (see above)
                for (int i = 0; i < cycles; i++) {
                    c.runCycle();
                    twin.runCycle();
                    if (fast.digest() != cd.reference()) {
                        assertFastEqualsReference(c, "mapper " + number + " (" + c.mapper().getClass().getSimpleName()
                                + ") at cycle " + c.cycles());
                        fail("mapper " + number + " (" + c.mapper().getClass().getSimpleName()
                                + "): the fast digest (caches kept) differs from the description at cycle " + c.cycles());
                    }
                    if ((i & 4095) == 0 && r.nextInt(8) == 0) {
                        c.reset();
                        twin.reset();
                    }
                }
            }
        }
        assertTrue(boards > 60, "boards checked: " + boards);
    }
}
