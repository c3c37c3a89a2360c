package lockstep.nes.app;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import lockstep.nes.core.Console;
import lockstep.nes.core.chain.PairStepper;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.verifier.Lockstep;
import lockstep.nes.verifier.SessionMetrics;
import lockstep.nes.verifier.VerifySession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep bench}: frames per second without JMH, with the same frame window convention
 * as ../shared/peers/libretro_bench.c: each pass powers the console on, runs W untimed frames,
 * then times N frames; passes repeat until at least 5 s were timed. Before them, untimed passes of
 * the same frames run until the JIT is quiet ({@link JitSettle}): the figure is the compiled
 * engine's, not the compiler's, and five JVMs of one jar agree. The threads and strict modes
 * first run one untimed session of W frames, so their own path is compiled before it is timed. Audio and video are produced
 * as in normal use (the audio buffer is drained every frame) and discarded.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure emulation speed: W untimed frames, then N timed frames, repeated until 5 s were timed, "
                + "after untimed passes of the same frames that let the JIT settle.",
            "Last line: passes=P seconds=S fps=F cpu=C (CPU seconds of the whole process per 1,000 timed frames), "
                + "and in the threads and strict modes parked=P (percent of the engine threads' time parked or blocked)"},
        footerHeading = "%nExamples:%n", footer = {"  lockstep bench", "  lockstep bench game.nes --frames 1000 --cpu-time", "  lockstep bench --mode lockstep", "  lockstep bench --mode threads"})
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ROM", description = "iNES / NES 2.0 file, or builtin:demo (default: the built-in demo ROM)")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Mixin
    RegionOption region = new RegionOption();

    @Option(names = "--frames", paramLabel = "N", description = "timed frames per pass (default: ${DEFAULT-VALUE})")
    int frames = 3000;

    @Option(names = "--warmup", paramLabel = "W", description = "untimed frames before each pass (default: ${DEFAULT-VALUE})")
    int warmup = 600;

    @Option(names = "--mode", paramLabel = "MODE", description = "single (one engine), lockstep (two engines on one "
            + "thread, as verify's same-thread mode), threads (one engine per thread, as verify --mode threads) or strict "
            + "(threads with --check every-cycle) (default: ${DEFAULT-VALUE})")
    String mode = "single";

    /** The longest timing asked for: a day (0 is one pass, however short). */
    private static final double MAX_SECONDS = 24 * 60 * 60;

    @Option(names = "--min-seconds", paramLabel = "S", description = "timed seconds to reach (default: ${DEFAULT-VALUE})")
    double minSeconds = 5;

    @Option(names = "--cpu-time", description = "time the emulating thread's CPU time instead of wall time "
            + "(steadier on a shared machine: time the thread waits for a core is not counted)")
    boolean cpuTime;

    @Option(names = "--no-spin-skip", description = "single and lockstep modes: run every iteration of a spin loop "
            + "instead of counting it (the engine strict mode is measured against: strict runs every cycle)")
    boolean noSpinSkip;

    @Option(names = "--settle", paramLabel = "P", description = "untimed passes, at most, that run before the timed "
            + "ones until one passes in which the JIT compiled for at most 1%% of its time, so that what is timed is "
            + "the compiled engine and not the compiler (at most 15 s of them; 0: none) (default: ${DEFAULT-VALUE})")
    int settlePasses = 5;

    /** Two engines on this thread (the lockstep mode). */
    private boolean lockstep;
    /** The untimed passes after which the JIT was quiet, or -1 where it was not (or none ran). */
    private int settledAfter = -1;

    /** Wall nanoseconds of the timed parts (this thread's CPU time with {@code --cpu-time}). */
    private long timedNanos;
    /** The process's CPU time over the timed parts (every thread: engines, comparison, JIT, GC). */
    private long timedCpuNanos;
    /** CPU cycles of the timed parts, and those spin-loop iterations counted rather than run (Console#skipSpin). */
    private long timedCycles;
    private long countedCycles;
    /** The engine threads of the timed sessions (threads and strict modes). */
    private final java.util.List<lockstep.nes.verifier.EngineThreadTimes> engineTimes = new java.util.ArrayList<>();

    @Override
    public Integer call() {
        if (frames < 1 || warmup < 0 || settlePasses < 0) {
            System.err.println("error: " + (frames < 1 ? OptionRange.atLeast("--frames", 1, frames)
                    : warmup < 0 ? OptionRange.atLeast("--warmup", 0, warmup)
                    : OptionRange.atLeast("--settle", 0, settlePasses)));
            return 2;
        }
        if (!OptionRange.within(minSeconds, 0, MAX_SECONDS)) {
            System.err.println("error: " + OptionRange.between("--min-seconds", 0, MAX_SECONDS, minSeconds));
            return 2;
        }
        Lockstep.Check threads; // null: this thread runs the engines
        switch (mode) {
            case "single" -> {
                lockstep = false;
                threads = null;
            }
            case "lockstep" -> {
                lockstep = true;
                threads = null;
            }
            case "threads", "strict" -> {
                lockstep = false;
                threads = mode.equals("threads") ? Lockstep.Check.CHAINED : Lockstep.Check.EVERY_CYCLE;
            }
            default -> {
                System.err.println("error: --mode must be single, lockstep, threads or strict, not '" + mode + "'");
                return 2;
            }
        }
        Cartridge cart;
        try {
            cart = region.apply(RomArg.load(rom, archive.entry));
        } catch (RomFormatException | BadInput e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        short[] audio = new short[8192];
        int passes = 0;
        if (threads != null) {
            // Counts each thread's time parked, sleeping, waiting or blocked (ThreadInfo's waited
            // and blocked times), which the engine threads read for themselves as they end.
            java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            if (mx.isThreadContentionMonitoringSupported()) {
                mx.setThreadContentionMonitoringEnabled(true);
            }
        }
        try {
            byte[] threadsStart = null;
            if (threads != null) {
                // Every timed session starts where W frames of one engine leave it. The timed
                // sessions run the engines on threads of their own through the chained (or
                // every-cycle) path, which no single-engine run compiles: one untimed session of
                // W frames from that state does, as the same-thread modes' warm-up does for
                // theirs. Between the timed sessions nothing else runs, so the JIT's profiles
                // stay those of the path measured.
                Console a = engine(cart);
                run(a, null, null, null, warmup, audio);
                threadsStart = new Snapshots(a).save();
                if (warmup > 0) {
                    threads(cart, threads, threadsStart, warmup, null);
                }
            }
            JitSettle settle = new JitSettle(settlePasses);
            while (settle.another()) {
                settle.startPass();
                pass(cart, threads, threadsStart, audio, false);
                long jitMillis = settle.endPass();
                System.err.printf(Locale.ROOT, "bench: untimed pass %d, the JIT compiled for %d ms of it%n",
                        settle.passes(), jitMillis);
            }
            if (settle.passes() > 0) {
                System.err.printf(Locale.ROOT, settle.settled()
                        ? "bench: the JIT settled after %d untimed passes (%.1f s)%n"
                        : "bench: the JIT had not settled after %d untimed passes (%.1f s): timing anyway%n",
                        settle.passes(), settle.seconds());
            }
            settledAfter = settle.settled() ? settle.passes() : -1;
            while (timedNanos < minSeconds * 1e9 || passes == 0) {
                pass(cart, threads, threadsStart, audio, true);
                passes++;
                System.err.printf(Locale.ROOT, "bench: pass %d, %.2f s timed%n", passes, timedNanos / 1e9);
            }
        } catch (RomFormatException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        } catch (IllegalStateException e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
        double seconds = timedNanos / 1e9;
        if (timedCycles > 0) {
            System.err.printf(Locale.ROOT, "bench: %.1f%% of the timed CPU cycles were spin-loop iterations counted, not run%n",
                    100.0 * countedCycles / timedCycles);
        }
        System.out.printf(Locale.ROOT, "rom=%s mode=%s frames=%d warmup=%d clock=%s settled=%s%n", RomArg.name(rom), mode,
                frames, warmup, cpuTime && threads == null ? "thread-cpu" : "wall",
                settledAfter < 0 ? "no" : settledAfter + "-passes");
        StringBuilder last = new StringBuilder(String.format(Locale.ROOT, "passes=%d seconds=%.3f fps=%.1f", passes,
                seconds, (double) frames * passes / seconds));
        last.append(String.format(Locale.ROOT, " cpu=%.3f", timedCpuNanos / 1e9 / ((double) frames * passes / 1000)));
        if (threads != null) {
            long engineCpu = 0;
            for (lockstep.nes.verifier.EngineThreadTimes t : engineTimes) {
                engineCpu += Math.max(0, t.cpuNanos());
            }
            System.err.printf(Locale.ROOT, "bench: the engine threads took %.3f of the process's %.3f CPU seconds timed%n",
                    engineCpu / 1e9, timedCpuNanos / 1e9);
            double parked = parkedPercent(engineTimes);
            last.append(parked < 0 ? " parked=n/a" : String.format(Locale.ROOT, " parked=%.1f", parked));
        }
        System.out.println(last);
        return 0;
    }

    /**
     * One pass: the timed frames of a threads-mode session from {@code threadsStart}, or a
     * console powered on, W untimed frames and the timed ones. A timed pass adds to the timed
     * totals; an untimed one runs exactly the same frames.
     */
    private void pass(Cartridge cart, Lockstep.Check threads, byte[] threadsStart, short[] audio, boolean timed)
            throws RomFormatException {
        if (threads != null) {
            // The session's own threads run the engines (wall time: the CPU time of this
            // thread would miss them).
            final long p0 = processCpu();
            final long nanos = threads(cart, threads, threadsStart, frames, timed ? engineTimes : null);
            if (timed) {
                timedNanos += nanos;
                timedCpuNanos += processCpu() - p0;
            }
            return;
        }
        Console a = engine(cart);
        Console b = lockstep ? engine(cart) : null;
        if (lockstep) {
            // As the verifier's engines: no one looks at their pictures.
            a.drawPicture(false);
            b.drawPicture(false);
        }
        CycleDigest da = lockstep ? new CycleDigest(a) : null;
        CycleDigest db = lockstep ? new CycleDigest(b) : null;
        run(a, b, da, db, warmup, audio);
        final long c0 = a.cycles();
        final long s0 = a.spinCyclesSkipped();
        final long p0 = processCpu();
        final long t0 = now();
        run(a, b, da, db, frames, audio);
        if (timed) {
            timedNanos += now() - t0;
            timedCpuNanos += processCpu() - p0;
            timedCycles += a.cycles() - c0;
            countedCycles += a.spinCyclesSkipped() - s0;
        }
    }

    private Console engine(Cartridge cart) throws RomFormatException {
        return noSpinSkip ? Console.createWithoutSpinSkip(cart) : Console.create(cart);
    }

    /**
     * The percentage of the engine threads' wall time spent parked, sleeping, waiting or blocked
     * (summed over the threads: JVM thread statistics, milliseconds), or -1 where the JVM does
     * not count it.
     */
    static double parkedPercent(java.util.List<lockstep.nes.verifier.EngineThreadTimes> times) {
        long wallNanos = 0;
        long parkedMillis = 0;
        for (lockstep.nes.verifier.EngineThreadTimes t : times) {
            if (t.parkedOrBlockedMillis() < 0) {
                return -1;
            }
            wallNanos += t.wallNanos();
            parkedMillis += t.parkedOrBlockedMillis();
        }
        return wallNanos == 0 ? -1 : 100.0 * parkedMillis * 1e6 / wallNanos;
    }

    /** CPU nanoseconds of every thread of this process so far (0 where the JVM cannot say). */
    private static long processCpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    /**
     * Wall nanoseconds of a threads-mode session of {@code frames} frames from {@code start}
     * ({@code --cpu-time} does not apply: the engines run on the session's threads), checked
     * clean. No checkpoints: the loop measured is the engines' and the comparison's.
     */
    private static long threads(Cartridge cart, Lockstep.Check check, byte[] start, int frames,
                                java.util.List<lockstep.nes.verifier.EngineThreadTimes> times) throws RomFormatException {
        Lockstep.Options o = new Lockstep.Options();
        o.session = "bench";
        o.frames = frames;
        o.check = check;
        o.checkpointEvery = Integer.MAX_VALUE;
        o.rollback = Lockstep.Rollback.OFF;
        VerifySession s = VerifySession.threadsFrom(cart, o,
                fence -> new SessionMetrics(new SimpleMeterRegistry(), o.session, fence), start);
        long t0 = System.nanoTime();
        Lockstep.Result r;
        try {
            r = s.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        long t = System.nanoTime() - t0;
        if (times != null) {
            times.addAll(s.engineThreadTimes());
        }
        if (r.diverged() || !r.completed()) {
            throw new IllegalStateException("engines diverged: " + r.stopReason());
        }
        return t;
    }

    /** Nanoseconds of wall time, or of this thread's CPU time with {@code --cpu-time}. */
    private long now() {
        return cpuTime ? ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static void run(Console a, Console b, CycleDigest da, CycleDigest db, int n, short[] audio) {
        final PairStepper pair = b == null ? null : new PairStepper(a, b);
        final Snapshots sa = b == null ? null : new Snapshots(a);
        final Snapshots sb = b == null ? null : new Snapshots(b);
        for (int f = 0; f < n; f++) {
            if (b == null) {
                a.runFrame();
            } else {
                // The verifier's same-thread loop: both engines saved at the frame's start (where
                // it re-runs a frame from to find the exact cycle of a difference), then each
                // runs the frame alone, folding every cycle into its chain, and the two are
                // compared at its end; single cycles, compared after each, where a stretch cannot
                // start.
                sa.saveToBuffer();
                sb.saveToBuffer();
                long frame = a.frame();
                while (a.frameAfterCycle() == frame) {
                    final long cycles = pair.stepStretch(Long.MAX_VALUE);
                    if (cycles < 0) {
                        throw new IllegalStateException("engines diverged by cycle " + a.cycles());
                    }
                    if (cycles == 0) {
                        a.runCycle();
                        b.runCycle();
                        if (da.differsFrom(db)) {
                            throw new IllegalStateException("engines diverged at cycle " + a.cycles());
                        }
                    }
                }
                if (da.digest() != db.digest()) { // and its end-of-frame check
                    throw new IllegalStateException("engines diverged by frame " + a.frame());
                }
                while (b.apu().audio().read(audio, 0, audio.length) > 0) {
                    // discard
                }
            }
            while (a.apu().audio().read(audio, 0, audio.length) > 0) {
                // discard
            }
        }
    }
}
