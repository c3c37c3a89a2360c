package lockstep.nes.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.Console;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.verifier.CheckpointRing;
import lockstep.nes.verifier.EpochFence;
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
 * Checkpoint ring memory per minute of play and the cost of adding a checkpoint. Setup plays
 * one minute (3,606 frames, after 600 frames of warm-up) with a checkpoint every {@code every}
 * frames into a ring that keeps that minute, and prints
 * {@code checkpoint-ring ROM every=K bytes-per-minute=B raw=R}; {@link #add} then measures
 * adding those snapshots again (XOR with the previous one plus Deflate), in µs per checkpoint.
 * {@code every=60} is the verifier's default cadence, {@code every=4} the rewind cadence.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CheckpointBenchmark {
    @Param({"demo", "nes-test-roms/spritecans-2011/spritecans.nes"})
    public String rom;

    @Param({"60", "4"})
    public int every;

    private final List<byte[]> snapshots = new ArrayList<>();
    private CheckpointRing ring;
    private int next;
    private long frame;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Console c = Console.create(EngineBenchmark.cartridge(rom));
        for (int i = 0; i < 600; i++) {
            c.runFrame();
        }
        Snapshots s = new Snapshots(c);
        int minute = (int) Math.round(60 * CheckpointRing.NTSC_FPS);
        CheckpointRing minuteRing = CheckpointRing.forDuration(60, every, new EpochFence());
        for (int f = 1; f <= minute; f++) {
            c.setButtons(0, (f / 30) % 3 == 0 ? 0x01 : 0);
            c.runFrame();
            if (f % every == 0) {
                byte[] snap = s.save();
                snapshots.add(snap);
                minuteRing.add(new CheckpointRing.Checkpoint(f, c.cycles(), 1, snap, ""));
            }
        }
        System.out.printf("%ncheckpoint-ring %s every=%d checkpoints=%d bytes-per-minute=%d raw=%d%n", rom, every,
                minuteRing.size(), minuteRing.bytes(), minuteRing.rawBytes());
        ring = CheckpointRing.forDuration(60, every, new EpochFence());
    }

    /** Adds the next recorded snapshot to the ring (µs per checkpoint). */
    @Benchmark
    public long add() {
        byte[] snap = snapshots.get(next);
        next = (next + 1) % snapshots.size();
        ring.add(new CheckpointRing.Checkpoint(frame++, frame, 1, snap, ""));
        return ring.bytes();
    }
}
