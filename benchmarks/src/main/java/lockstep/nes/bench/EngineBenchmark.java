package lockstep.nes.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.chain.RepresentationTerm;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.Snapshots;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Engine speed, forked and warmed past boot screens (600 frames before measuring).
 * ROM "demo" is the built-in demo; others are paths under the roms dir (-Dlockstep.roms,
 * default ../shared/roms). Frames per second = ops/s of {@link #frame}.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EngineBenchmark {
    @Param({"demo", "nes-test-roms/spritecans-2011/spritecans.nes", "nes-test-roms/nes15-1.0.0/nes15-NTSC.nes",
        "nes-test-roms/tutor/tutor.nes"})
    public String rom;

    private Console a;
    private Console b;
    private RepresentationTerm termA;
    private CycleDigest da;
    private CycleDigest db;
    private Snapshots snapshots;
    private byte[] snapshot;

    static Cartridge cartridge(String rom) throws Exception {
        if (rom.equals("demo")) {
            return Cartridge.parse(DemoRom.NAME, DemoRom.bytes());
        }
        Path dir = Path.of(System.getProperty("lockstep.roms", "../shared/roms"));
        Path p = dir.resolve(rom);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("ROM not found: " + p + " (set -Dlockstep.roms)");
        }
        return Cartridge.load(p);
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Cartridge cart = cartridge(rom);
        a = Console.create(cart);
        b = Console.create(cart);
        for (int i = 0; i < 600; i++) {
            a.runFrame();
            b.runFrame();
        }
        da = new CycleDigest(a);
        termA = new RepresentationTerm(a);
        db = new CycleDigest(b);
        snapshots = new Snapshots(a);
        snapshot = snapshots.save();
    }

    /** One frame of one engine (frames/s). */
    @Benchmark
    public long frame() {
        a.runFrame();
        return a.cycles();
    }

    /** One frame of two engines stepped together with their digests compared every cycle. */
    @Benchmark
    public long lockstepFrame() {
        long f = a.frame();
        long mismatches = 0;
        while (a.frameAfterCycle() == f) {
            a.runCycle();
            b.runCycle();
            if (da.differsFrom(db)) {
                mismatches++;
            }
        }
        return mismatches;
    }

    /** One CPU cycle plus its digest (compare with {@link #cycle} for the digest's cost). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @BenchmarkMode(Mode.AverageTime)
    public long cycleAndDigest() {
        a.runCycle();
        return da.digest();
    }

    /**
     * One CPU cycle plus its representation digest (nothing caught up; compare with
     * {@link #cycle} for its cost: the budget is 10% of the engine's time per cycle).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @BenchmarkMode(Mode.AverageTime)
    public long cycleAndRepresentationDigest() {
        a.runCycle();
        return da.representation();
    }

    /**
     * One CPU cycle plus the representation digest's term (what threads mode publishes: the
     * digest without its finaliser, which compares alike).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @BenchmarkMode(Mode.AverageTime)
    public long cycleAndRepresentationTerm() {
        a.runCycle();
        return termA.term();
    }

    /** One frame run cycle by cycle (as the threads and processes modes step), no digest. */
    @Benchmark
    public long frameByCycles() {
        final Console c = a;
        final long f = c.frameAfterCycle();
        long n = 0;
        while (c.frameAfterCycle() == f) {
            c.runCycle();
            n++;
        }
        return n;
    }

    /** One frame run cycle by cycle with the representation digest after every cycle (summed). */
    @Benchmark
    public long frameByCyclesWithRepresentationDigest() {
        final Console c = a;
        final CycleDigest d = da;
        final long f = c.frameAfterCycle();
        long sum = 0;
        while (c.frameAfterCycle() == f) {
            c.runCycle();
            sum += d.representation();
        }
        return sum;
    }

    /** One CPU cycle alone. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @BenchmarkMode(Mode.AverageTime)
    public long cycle() {
        a.runCycle();
        return a.cycles();
    }

    /** Snapshot save then load (µs per pair; the snapshot size is printed at setup). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @BenchmarkMode(Mode.AverageTime)
    public int snapshotSaveLoad() throws Exception {
        int n = snapshots.saveToBuffer();
        snapshots.load(snapshot, snapshot.length, "bench");
        return n;
    }
}
