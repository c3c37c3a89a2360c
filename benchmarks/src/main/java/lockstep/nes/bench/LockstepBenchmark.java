package lockstep.nes.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.verifier.Lockstep;
import lockstep.nes.verifier.SessionMetrics;
import lockstep.nes.verifier.VerifySession;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole verification session (two engines, per-cycle digests compared, checkpoints every 60
 * frames) of {@link #FRAMES} frames from power-on, in same-thread and threads mode:
 * ops/s = verified frames/s.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LockstepBenchmark {
    static final int FRAMES = 120;

    @Param({"SAME_THREAD", "THREADS"})
    public VerifySession.Mode mode;

    @Param({"demo"})
    public String rom;

    private Cartridge cart;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        cart = EngineBenchmark.cartridge(rom);
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long session() throws Exception {
        Lockstep.Options o = new Lockstep.Options();
        o.session = "bench";
        o.romName = rom;
        o.frames = FRAMES;
        Lockstep.Result r = VerifySession.create(mode, cart, o,
                fence -> new SessionMetrics(new SimpleMeterRegistry(), o.session, fence)).run();
        if (r.diverged() || !r.completed()) {
            throw new IllegalStateException("session did not complete cleanly: " + r.stopReason());
        }
        return r.cyclesVerified();
    }
}
