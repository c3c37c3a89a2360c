package lockstep.nes.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.Console;
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
 * {@link #FRAMES} frames from power-on in each of {@code lockstep bench}'s modes: {@code single}
 * (one engine, the reference), {@code lockstep} (a same-thread verification session),
 * {@code threads} (a threads-mode session, one engine per thread, chained) and {@code strict}
 * (threads mode with {@code --check every-cycle}); sessions compare as {@code lockstep verify}
 * does, checkpoints every 60 frames. ops/s = frames/s; the ratio of each mode to {@code single}
 * is the figure docs/design/performance.md tracks.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LockstepBenchmark {
    static final int FRAMES = 120;

    @Param({"single", "lockstep", "threads", "strict"})
    public String mode;

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
        if (mode.equals("single")) {
            Console c = Console.create(cart);
            for (int i = 0; i < FRAMES; i++) {
                c.runFrame();
            }
            return c.cycles();
        }
        Lockstep.Options o = new Lockstep.Options();
        o.session = "bench";
        o.romName = rom;
        o.frames = FRAMES;
        o.check = mode.equals("strict") ? Lockstep.Check.EVERY_CYCLE : Lockstep.Check.CHAINED;
        VerifySession.Mode m = mode.equals("lockstep") ? VerifySession.Mode.SAME_THREAD : VerifySession.Mode.THREADS;
        Lockstep.Result r = VerifySession.create(m, cart, o,
                fence -> new SessionMetrics(new SimpleMeterRegistry(), o.session, fence)).run();
        if (r.diverged() || !r.completed()) {
            throw new IllegalStateException("session did not complete cleanly: " + r.stopReason());
        }
        return r.cyclesVerified();
    }
}
