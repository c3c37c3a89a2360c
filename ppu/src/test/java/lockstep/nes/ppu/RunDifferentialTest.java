package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Random;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code run(n)} must be exactly {@code n} calls of {@code step()}: two PPUs with identical
 * memories, one stepped a dot at a time and one run in random chunks (from single dots to several
 * lines, so every batch path starts and stops at arbitrary dots), get the same random register
 * accesses between chunks, and after every chunk their states, digest terms (the cached fast path
 * checked against the reference {@link DigestTerm}), pictures and the order of every address
 * they put on the cartridge bus must agree.
 */
class RunDifferentialTest {

    /** A bus with random memories and a log of events in order. */
    private abstract static class LogBus implements PpuBus {
        // 16 KiB of CHR: an A12-watching bus switches the low pattern table's bank with A12.
        final byte[] chr = new byte[0x4000];
        final int[] chrPage = {0, 0x400, 0x800, 0xC00, 0x1000, 0x1400, 0x1800, 0x1C00};
        final byte[] nt = new byte[0x800];
        final int[] ntPage = {0, 0x400, 0, 0x400};
        long[] log = new long[1 << 16];
        int count;

        LogBus(long seed) {
            Random r = new Random(seed);
            r.nextBytes(chr);
            // Some all-zero and all-one tiles, so transparent and opaque pixels both occur a lot.
            for (int tile = 0; tile < 1024; tile += 3) {
                Arrays.fill(chr, tile * 16, tile * 16 + 16, (byte) (tile % 2 == 0 ? 0 : 0xFF));
            }
            r.nextBytes(nt);
        }

        /** True when the log of the PPU run in chunks must equal the stepped one's. */
        abstract boolean logged();

        void record(int kind, int addr, int value) {
            if (count == log.length) {
                log = Arrays.copyOf(log, count * 2);
            }
            log[count++] = ((long) kind << 32) | ((long) addr << 8) | (value & 0xFF);
        }

        int index(int addr) {
            return addr < 0x2000 ? chrPage[addr >> 10] | (addr & 0x3FF) : ntPage[(addr >> 10) & 3] | (addr & 0x3FF);
        }
    }

    /**
     * A board that watches A12 only: it logs each change of A12 with the PPU's position at the
     * time, and (so the PPU must read the pattern tables after telling it) maps the low pattern
     * table to another 4 KiB bank while A12 is high, unless it takes {@code dips}
     * ({@link PpuBus#a12Dip}, logged as the two changes they stand for). With {@code watch} it
     * offers its arrays and level ({@link PpuBus#a12Watch}), so the PPU tells it only of
     * changes; without, it sees every access (the reference).
     */
    private static final class A12Bus extends LogBus {
        final boolean watch;
        final boolean dips;
        final int[] line = new int[1];
        Ppu ppu;

        A12Bus(boolean watch, boolean dips, long seed) {
            super(seed);
            this.watch = watch;
            this.dips = dips;
        }

        @Override
        boolean logged() {
            return true;
        }

        private void see(int addr) {
            final int level = addr & 0x1000;
            if (level != line[0]) {
                line[0] = level;
                if (!dips) {
                    for (int i = 0; i < 4; i++) {
                        chrPage[i] = (level != 0 ? 0x2000 : 0) + 0x400 * i;
                    }
                }
                record(level != 0 ? 5 : 4, ppu.scanline(), ppu.dot());
            }
        }

        @Override
        public int ppuRead(int addr) {
            see(addr);
            return (addr < 0x2000 ? chr[index(addr)] : nt[index(addr)]) & 0xFF;
        }

        @Override
        public void ppuWrite(int addr, int value) {
            see(addr);
            record(2, addr, value);
            if (addr < 0x2000) {
                chr[index(addr)] = (byte) value;
            } else {
                nt[index(addr)] = (byte) value;
            }
        }

        @Override
        public void ppuAddress(int addr) {
            see(addr);
        }

        @Override
        public void a12Dip(int lowAddr, int highAddr, int dots) {
            if (!dips || line[0] == 0 || (lowAddr & 0x1000) != 0 || (highAddr & 0x1000) == 0) {
                throw new IllegalStateException("a12Dip " + Integer.toHexString(lowAddr) + " " + Integer.toHexString(highAddr));
            }
            record(4, ppu.scanline(), ppu.dot());
            record(5, ppu.scanline(), ppu.dot() + dots);
        }

        @Override
        public A12Watch a12Watch() {
            return watch ? new A12Watch(new Direct(chr, chrPage, nt, ntPage), line, dips) : null;
        }
    }

    /** A bus that logs every access in order; {@code direct} makes it offer its plain arrays. */
    private static final class LoggingBus extends LogBus {
        final boolean direct;

        LoggingBus(boolean direct, long seed) {
            super(seed);
            this.direct = direct;
        }

        @Override
        boolean logged() {
            return !direct;
        }

        @Override
        public int ppuRead(int addr) {
            record(1, addr, 0);
            return (addr < 0x2000 ? chr[index(addr)] : nt[index(addr)]) & 0xFF;
        }

        @Override
        public void ppuWrite(int addr, int value) {
            record(2, addr, value);
            if (addr < 0x2000) {
                chr[index(addr)] = (byte) value;
            } else {
                nt[index(addr)] = (byte) value;
            }
        }

        @Override
        public void ppuAddress(int addr) {
            record(3, addr, 0);
        }

        @Override
        public Direct direct() {
            return direct ? new Direct(chr, chrPage, nt, ntPage) : null;
        }
    }

    /** Describes a PPU's state as text, for comparison with a readable difference. */
    private static String describe(Ppu ppu) {
        StringBuilder sb = new StringBuilder();
        ppu.state(new StateVisitor() {
            @Override public void beginSection(String name) { sb.append('[').append(name); }
            @Override public void endSection() { sb.append(']'); }
            @Override public boolean bool(String name, boolean value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int u8(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int u16(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int i32(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public long i64(String name, long value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public void bytes(String name, byte[] array) { sb.append(name).append('=').append(Arrays.toString(array)).append('\n'); }
            @Override public void ints(String name, int[] array) { sb.append(name).append('=').append(Arrays.toString(array)).append(' '); }
        });
        return sb.toString();
    }

    private static void fillOam(Ppu ppu, Random r) {
        for (int i = 0; i < 256; i++) {
            int value = r.nextInt(256);
            if ((i & 3) == 0 && r.nextInt(3) == 0) {
                value = 40 + r.nextInt(12); // crowd some lines: overflow and the evaluation bug
            }
            ppu.oam().write(i, value & ((i & 3) == 2 ? 0xE3 : 0xFF));
        }
    }

    /** A random register access, biased towards keeping rendering on. */
    private static void access(Random r, int pick, int value, Ppu ppu) {
        switch (pick) {
            case 0 -> ppu.writeRegister(0, value);
            case 1 -> ppu.writeRegister(1, value);
            case 2 -> ppu.readRegister(2);
            case 3 -> ppu.writeRegister(3, value);
            case 4 -> ppu.writeRegister(4, value);
            case 5 -> ppu.readRegister(4);
            case 6 -> ppu.writeRegister(5, value);
            case 7 -> ppu.writeRegister(6, value);
            case 8 -> ppu.writeRegister(7, value);
            case 9 -> ppu.readRegister(7);
            default -> throw new IllegalStateException();
        }
    }

    private static int maskValue(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> 0x00;
            case 1 -> 0x08;
            case 2 -> 0x10;
            case 3 -> 0x1E;
            case 4 -> 0x18;
            case 5 -> 0x1F | (r.nextInt(8) << 5);
            default -> 0x1E | (r.nextInt(2) == 0 ? 0 : 0x01);
        };
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void runEqualsSteppingDotByDot(long seed) {
        check(seed, new LoggingBus(false, seed), new LoggingBus(seed % 2 == 0, seed), false, 7);
    }

    /** The batches of a PAL and a Dendy PPU, whose frames have other lines (see {@link Region}). */
    @ParameterizedTest
    @ValueSource(longs = {51, 52, 53, 54})
    void runEqualsSteppingDotByDotInTheOtherRegions(long seed) {
        Region region = seed % 2 == 0 ? Region.PAL : Region.DENDY;
        check(seed, new LoggingBus(false, seed), new LoggingBus(seed % 4 < 2, seed), seed == 54, 4, region);
    }

    /** Short chunks within lines: a digest taken mid-line, then a batch that changes a flag. */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void shortChunksKeepTheDigestCacheExact(long seed) {
        check(seed, new LoggingBus(false, seed), new LoggingBus(seed % 2 == 0, seed), true, 3);
    }

    /**
     * An A12-watching board told only of A12 changes, run in chunks, sees the same changes on
     * the same dots as one that sees every access of a PPU stepped dot by dot (and reads with
     * the banks as switched by them).
     */
    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33, 34})
    void a12WatchingBoardSeesEveryChangeOnItsDot(long seed) {
        A12Bus reference = new A12Bus(false, false, seed);
        A12Bus watching = new A12Bus(true, false, seed);
        check(seed, reference, watching, seed == 34, seed == 34 ? 3 : 6);
    }

    /** The same for a board that takes a fall and the rise after it in one call (a12Dip). */
    @ParameterizedTest
    @ValueSource(longs = {41, 42, 43})
    void a12DipsAreTheChangesTheyStandFor(long seed) {
        A12Bus reference = new A12Bus(false, true, seed);
        A12Bus watching = new A12Bus(true, true, seed);
        check(seed, reference, watching, seed == 43, seed == 43 ? 3 : 6);
    }

    /**
     * Batches that end on every dot of the sprite-fetch and prefetch part of a line (257-340),
     * on a visible line and on the pre-render line (its vertical scroll copies on 280-304): the
     * whole-slot path must leave v, the sprite fields and the sprite line as the dots would.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void batchesEndingOnEveryHblankDot(boolean direct) {
        LoggingBus busA = new LoggingBus(false, 21);
        LoggingBus busB = new LoggingBus(direct, 21);
        Ppu a = new Ppu(busA);
        Ppu b = new Ppu(busB);
        a.power();
        b.power();
        fillOam(a, new Random(21));
        fillOam(b, new Random(21));
        for (Ppu p : new Ppu[] {a, b}) {
            p.writeRegister(1, 0x1E);
            p.writeRegister(0, 0x00);
            // t with a vertical scroll, so the pre-render line's copy changes v.
            p.writeRegister(5, 0x00);
            p.writeRegister(5, 0x5D);
        }
        for (int s = 257; s <= 340; s++) {
            for (int line : new int[] {45, 261}) {
                int n = 0;
                while (a.scanline() != line || a.dot() != s) {
                    a.step();
                    n++;
                }
                b.run(n);
                String where = "stop at " + line + "," + s;
                assertEquals(a.dot(), b.dot(), where);
                assertEquals(describe(a), describe(b), where);
                assertArrayEquals(a.frame(), b.frame(), where + ": picture");
                if (!direct) {
                    assertEquals(busA.count, busB.count, where + ": bus events");
                }
            }
        }
    }

    private static void check(long seed, LogBus busA, LogBus busB, boolean fine, int frames) {
        check(seed, busA, busB, fine, frames, Region.NTSC);
    }

    private static void check(long seed, LogBus busA, LogBus busB, boolean fine, int frames, Region region) {
        Ppu a = new Ppu(busA, region);
        Ppu b = new Ppu(busB, region);
        if (busA instanceof A12Bus x) {
            x.ppu = a;
        }
        if (busB instanceof A12Bus x) {
            x.ppu = b;
        }
        a.power();
        b.power();
        Random r = new Random(seed * 7919);
        Random setup = new Random(seed);
        fillOam(a, new Random(seed));
        fillOam(b, new Random(seed));
        for (int i = 0; i < 32; i++) {
            int value = setup.nextInt(64);
            a.palette().write(i, value);
            b.palette().write(i, value);
        }
        a.writeRegister(1, 0x1E);
        b.writeRegister(1, 0x1E);
        final long totalDots = (long) frames * region.frameDots();
        long dots = 0;
        int chunks = 0;
        while (dots < totalDots) {
            int n = fine ? 1 + r.nextInt(r.nextInt(4) == 0 ? 4 : 40) : switch (r.nextInt(6)) {
                case 0 -> 1 + r.nextInt(3);
                case 1 -> 1 + r.nextInt(24);
                case 2 -> 1 + r.nextInt(120);
                case 3 -> 1 + r.nextInt(700);
                case 4 -> 1 + r.nextInt(4000);
                default -> 1 + r.nextInt(341);
            };
            for (int i = 0; i < n; i++) {
                a.step();
            }
            b.run(n);
            dots += n;
            chunks++;
            String where = "seed " + seed + " chunk " + chunks + " (n=" + n + ") at " + a.scanline() + "," + a.dot();
            assertEquals(a.scanline(), b.scanline(), where);
            assertEquals(a.dot(), b.dot(), where);
            if (busB.logged()) {
                assertEquals(busA.count, busB.count, where + ": bus events");
                for (int i = 0; i < busA.count; i++) {
                    if (busA.log[i] != busB.log[i]) {
                        fail(where + ": bus event " + i + " of " + busA.count + ": "
                                + Long.toHexString(busA.log[i]) + " stepped, " + Long.toHexString(busB.log[i]) + " run");
                    }
                }
            }
            String stateA = describe(a);
            String stateB = describe(b);
            if (!stateA.equals(stateB)) {
                assertEquals(stateA, stateB, where);
            }
            assertEquals(DigestTerm.of(a), a.digestTerm(), where + ": stepped digest fast path");
            assertEquals(DigestTerm.of(b), b.digestTerm(), where + ": run digest fast path");
            assertArrayEquals(a.frame(), b.frame(), where + ": picture");
            // Between chunks: a few register accesses, the same on both.
            int accesses = r.nextInt(4) == 0 ? 1 + r.nextInt(3) : 0;
            for (int i = 0; i < accesses; i++) {
                int pick = r.nextInt(10);
                int value = switch (pick) {
                    case 0 -> r.nextInt(256) | (r.nextInt(4) == 0 ? 0 : 0x80) & ~(r.nextInt(2) == 0 ? 0x20 : 0);
                    case 1 -> maskValue(r);
                    case 7 -> r.nextInt(3) == 0 ? 0x3F : r.nextInt(256);
                    default -> r.nextInt(256);
                };
                if (pick == 3 && r.nextBoolean()) {
                    value = 0; // OAMADDR 0 most of the time, as games leave it
                }
                access(r, pick, value, a);
                access(r, pick, value, b);
            }
            if (r.nextInt(50) == 0) {
                // Keep rendering on most of the time.
                a.writeRegister(1, 0x1E);
                b.writeRegister(1, 0x1E);
            }
        }
        // The test must have rendered: sprites on lines and sprite 0 hits happen with this OAM.
        assertEquals(true, a.frameCount() >= frames - 1, "frames run");
    }
}
