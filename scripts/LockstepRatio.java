import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Lockstep against one engine in one JVM: for each ROM, interleaved batches of
 * {@code lockstep bench --mode single --cpu-time} and {@code --mode lockstep --cpu-time} (the
 * verifier's same-thread loop), so both run with the same JIT decisions; thread CPU time, so
 * time spent waiting for a core on a shared machine is not counted. Prints each batch's
 * lockstep/single ratio and their median per ROM.
 *
 * <p>Run with a lockstep jar on the class path (Java's single-file source launcher):
 * {@code java -cp app/target/lockstep.jar scripts/LockstepRatio.java [--batches B] [--frames N]
 * [--warmup W] [--no-header] ROM...} ({@code demo} is the built-in demo ROM). scripts/lockstep-ratio.sh runs it
 * for several jars.
 */
public final class LockstepRatio {
    public static void main(String[] args) throws Exception {
        int batches = 12;
        int frames = 300;
        int warmup = 600;
        boolean header = true;
        List<String> roms = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--frames" -> frames = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--no-header" -> header = false;
                default -> roms.add(args[i]);
            }
        }
        if (roms.isEmpty() || batches < 1) {
            System.err.println("usage: java -cp lockstep.jar LockstepRatio.java [--batches B] [--frames N] [--warmup W] ROM...");
            System.exit(2);
        }
        if (header) {
            System.out.printf(Locale.ROOT, "batches=%d frames=%d warmup=%d clock=thread-cpu%n", batches, frames, warmup);
            System.out.println("| ROM | single fps (median) | lockstep fps (median) | lockstep/single per batch | median |");
            System.out.println("|---|---:|---:|---|---:|");
        }
        for (String rom : roms) {
            double[] single = new double[batches];
            double[] pair = new double[batches];
            double[] ratio = new double[batches];
            StringBuilder each = new StringBuilder();
            for (int b = 0; b < batches; b++) {
                // Alternate which mode goes first, so neither always runs on a warmer machine.
                if (b % 2 == 0) {
                    single[b] = fps(rom, "single", frames, warmup);
                    pair[b] = fps(rom, "lockstep", frames, warmup);
                } else {
                    pair[b] = fps(rom, "lockstep", frames, warmup);
                    single[b] = fps(rom, "single", frames, warmup);
                }
                ratio[b] = pair[b] / single[b];
                each.append(b == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f", ratio[b]));
            }
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %s | %.3f |%n", Path.of(rom).getFileName(), median(single), median(pair), each,
                    median(ratio));
        }
    }

    /** One pass of {@code lockstep bench} in this JVM; its fps. */
    private static double fps(String rom, String mode, int frames, int warmup) throws Exception {
        List<String> args = new ArrayList<>(List.of("bench"));
        if (!rom.equals("demo")) {
            args.add(rom);
        }
        args.addAll(List.of("--mode", mode, "--cpu-time", "--frames", Integer.toString(frames),
                "--warmup", Integer.toString(warmup), "--min-seconds", "0"));
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(OutputStream.nullOutputStream()));
            code = (int) Class.forName("lockstep.nes.app.Main").getMethod("run", String[].class)
                    .invoke(null, (Object) args.toArray(String[]::new));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        int at = text.lastIndexOf("fps=");
        if (code != 0 || at < 0) {
            System.err.println("error: " + rom + ": lockstep bench --mode " + mode + " exited " + code);
            System.exit(1);
        }
        return Double.parseDouble(text.substring(at + 4).trim().split("\\s+")[0]);
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
