package lockstep.nes.verifier;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A second process that wants every core: one busy thread per core, until it is destroyed
 * ({@link #close}). Tests start it beside a run to show that a busy machine makes the verifier
 * slower, never wrong.
 */
final class CpuHog implements AutoCloseable {
    private final Process process;

    private CpuHog(Process process) {
        this.process = process;
    }

    /** Starts the hog (this class's {@link #main} in a JVM of its own) and waits until it spins. */
    static CpuHog start() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx32m", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), CpuHog.class.getName(),
                Integer.toString(Runtime.getRuntime().availableProcessors())));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        int ready = p.getInputStream().read(); // one byte once its threads run
        if (ready < 0) {
            throw new IllegalStateException("the CPU hog did not start");
        }
        return new CpuHog(p);
    }

    /** Spins {@code args[0]} threads forever (a hog: killed by its test). */
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                long x = 1;
                while (x != 0) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }, "hog-" + i);
            t.start();
        }
        System.out.write('R');
        System.out.flush();
        Thread.currentThread().join();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
