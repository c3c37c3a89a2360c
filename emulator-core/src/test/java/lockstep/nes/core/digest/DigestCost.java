package lockstep.nes.core.digest;

import lockstep.nes.core.chain.RepresentationTerm;
import lockstep.nes.core.snapshot.Snapshots;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;

/**
 * Measures the per-cycle digests against the engine's own time per cycle (thread CPU time,
 * rounds interleaved: engine alone, engine + representation term, engine + representation
 * digest, engine + present-state digest; each digest's cost is its time less the engine's of
 * the same round), and snapshot save and load (a probe, not a test: timings on a shared machine are not
 * assertions). Run with {@code java -cp ppu/target/classes:emulator-core/target/classes:emulator-core/target/test-classes
 * lockstep.nes.core.digest.DigestCost [ROM.nes ...]} (the demo when no ROM is given; -Dcycles,
 * -Drounds; -Dparts=true also times the CPU's term and its registers alone). Prints each ROM's best and range over the rounds.
 */
public final class DigestCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static long sink;

    public static void main(String[] args) throws Exception {
        int n = Integer.getInteger("cycles", 2_000_000);
        int rounds = Integer.getInteger("rounds", 8);
        if (args.length == 0) {
            measure(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()), n, rounds, true);
        }
        for (String a : args) {
            measure(Cartridge.load(Path.of(a)), n, rounds, false);
        }
    }

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    private static void engine(Console c, int n) {
        for (int i = 0; i < n; i++) {
            c.runCycle();
        }
    }

    private static void representation(Console c, CycleDigest d, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            c.runCycle();
            s += d.representation();
        }
        sink += s;
    }

    private static void term(Console c, int n) {
        final RepresentationTerm t = new RepresentationTerm(c);
        long s = 0;
        for (int i = 0; i < n; i++) {
            c.runCycle();
            s += t.term();
        }
        sink += s;
    }

    private static void cpuTerm(Console c, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            c.runCycle();
            s += c.cpu().digestTerm();
        }
        sink += s;
    }

    private static void registers(Console c, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            c.runCycle();
            s += c.cpu().registers();
        }
        sink += s;
    }

    /** The parts of the representation term (-Dparts=true): the CPU's term, its registers alone. */
    private static void parts(Console c, int n, int rounds) {
        double[] cpuTerm = new double[rounds];
        double[] regs = new double[rounds];
        for (int round = -2; round < rounds; round++) {
            long t0 = cpu();
            engine(c, n);
            long t1 = cpu();
            cpuTerm(c, n);
            long t2 = cpu();
            registers(c, n);
            long t3 = cpu();
            if (round >= 0) {
                double e = (t1 - t0) / (double) n;
                cpuTerm[round] = (t2 - t1) / (double) n - e;
                regs[round] = (t3 - t2) / (double) n - e;
            }
        }
        System.out.printf("  parts: + CPU term %s ns, + CPU registers alone %s ns%n", range(cpuTerm), range(regs));
    }

    private static void full(Console c, CycleDigest d, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            c.runCycle();
            s += d.digest();
        }
        sink += s;
    }

    private static void measure(Cartridge cart, int n, int rounds, boolean snapshots) throws Exception {
        Console c = Console.create(cart);
        CycleDigest d = new CycleDigest(c);
        for (int i = 0; i < 600; i++) {
            c.runFrame();
        }
        double[] e = new double[rounds];
        double[] t = new double[rounds];
        double[] r = new double[rounds];
        double[] f = new double[rounds];
        for (int round = -2; round < rounds; round++) { // two warm-up rounds
            long t0 = cpu();
            engine(c, n);
            long t1 = cpu();
            term(c, n);
            long t2 = cpu();
            representation(c, d, n);
            long t3 = cpu();
            full(c, d, n / 4);
            long t4 = cpu();
            if (round >= 0) {
                e[round] = (t1 - t0) / (double) n;
                t[round] = (t2 - t1) / (double) n - e[round];
                r[round] = (t3 - t2) / (double) n - e[round];
                f[round] = (t4 - t3) / (double) (n / 4) - e[round];
            }
        }
        double[] share = new double[rounds];
        double[] termShare = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            share[i] = 100 * r[i] / e[i];
            termShare[i] = 100 * t[i] / e[i];
        }
        System.out.printf("%s (thread CPU time per cycle, %d rounds of %d cycles, range and median):%n"
                + "  engine %s ns%n  + representation term %s ns (%s%% of the engine)%n"
                + "  + representation digest %s ns (%s%%)%n  + present-state digest %s ns [%d]%n",
                cart.name(), rounds, n, range(e), range(t), range(termShare), range(r), range(share), range(f), sink & 1);
        if (Boolean.getBoolean("parts")) {
            parts(c, n, rounds);
        }
        if (snapshots) {
            snapshotCost(c);
        }
    }

    private static String range(double[] v) {
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (double x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return String.format("%.1f..%.1f (median %.1f)", lo, hi, median(v));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static void snapshotCost(Console c) throws Exception {
        Snapshots snaps = new Snapshots(c);
        byte[] data = snaps.save();
        int m = 20_000;
        long save = Long.MAX_VALUE;
        long load = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long s0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                snaps.saveToBuffer();
            }
            long s1 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                snaps.load(data);
            }
            long s2 = System.nanoTime();
            save = Math.min(save, s1 - s0);
            load = Math.min(load, s2 - s1);
        }
        System.out.printf("snapshot (%d bytes): save %.2f us, load %.2f us%n", data.length, save / 1e3 / m, load / 1e3 / m);
    }
}
