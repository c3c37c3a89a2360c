import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.verifier.EngineStretch;
import lockstep.nes.verifier.Faults;
import lockstep.nes.verifier.Revisits;

/**
 * What the chain costs one engine, without a verifier: one console run frame by frame either
 * chained ({@link EngineStretch#stretch}, the stretch the lockstep modes fold) or plain
 * ({@link Console#runFrame}), on this thread, after 600 frames of runFrame. Prints the thread's
 * CPU seconds per 1,000 frames of each round. Run one JVM per path (each compiles only its own),
 * and record a profile of each with JFR to see where the difference goes
 * (benchmarks/README.md, "One engine").
 *
 * <p>{@code java -cp app/target/lockstep.jar scripts/ChainedCost.java ROM chained|plain [FRAMES] [ROUNDS]}
 */
public final class ChainedCost {
    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[1].equals("chained") || args[1].equals("plain"))) {
            System.err.println("usage: ChainedCost ROM chained|plain [FRAMES] [ROUNDS]");
            System.exit(2);
        }
        final boolean chained = args[1].equals("chained");
        final int frames = args.length > 2 ? Integer.parseInt(args[2]) : 1500;
        final int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        Console c = Console.create(Cartridge.load(Path.of(args[0])));
        for (int f = 0; f < 600; f++) {
            c.runFrame();
        }
        EngineStretch s = new EngineStretch(0, c, new Faults(List.of()), Revisits.NONE);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= rounds; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int f = 0; f < frames; f++) {
                if (chained) {
                    s.stretch(Long.MAX_VALUE, () -> false);
                } else {
                    c.runFrame();
                }
            }
            double cpu = (mx.getCurrentThreadCpuTime() - t0) / 1e9 / frames * 1000;
            System.out.printf(Locale.ROOT, "%s round %d: cpu=%.3f%n", args[1], round, cpu);
        }
    }
}
