package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code lockstep bench}: its last line (scripts parse it), every mode, both clocks (the threads
 * modes time the wall: their engines run on the session's threads), bad input.
 */
class BenchCommandTest {
    private static final Pattern LAST = Pattern.compile(
            "passes=(\\d+) seconds=(\\d+\\.\\d{3}) fps=(\\d+\\.\\d) cpu=(\\d+\\.\\d{3})( parked=(\\d+\\.\\d))?");

    @ParameterizedTest
    @CsvSource({"single,", "lockstep,", "threads,", "strict,", "single,--cpu-time", "lockstep,--cpu-time"})
    void runsTheDemoAndEndsWithPassesSecondsAndFps(String mode, String clock) {
        Cli.Result r = clock == null
                ? Cli.run("bench", "--frames", "20", "--warmup", "5", "--min-seconds", "0", "--mode", mode)
                : Cli.run("bench", "--frames", "20", "--warmup", "5", "--min-seconds", "0", "--mode", mode, clock);
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\\R");
        Matcher m = LAST.matcher(lines[lines.length - 1]);
        assertTrue(m.matches(), r.out());
        assertEquals(1, Integer.parseInt(m.group(1)), "one pass when no time has to be reached");
        double seconds = Double.parseDouble(m.group(2));
        double fps = Double.parseDouble(m.group(3));
        assertTrue(seconds > 0 && fps > 0, r.out());
        // fps is the timed frames over the timed seconds, which the line rounds to 1 ms
        assertTrue(seconds > 0.001 && fps <= 20 / (seconds - 0.0005) + 0.05 && fps >= 20 / (seconds + 0.0005) - 0.05, r.out());
        // cpu: the whole process's CPU seconds per 1,000 timed frames (a few milliseconds of timing
        // can read 0 at the clock's resolution)
        double cpu = Double.parseDouble(m.group(4));
        assertTrue(cpu >= 0, r.out());
        boolean threaded = mode.equals("threads") || mode.equals("strict");
        assertEquals(threaded, m.group(5) != null, "parked= in the threads and strict modes only: " + r.out());
        if (threaded) {
            double parked = Double.parseDouble(m.group(6));
            assertTrue(parked >= 0 && parked <= 100, r.out());
        }
        assertTrue(lines[lines.length - 2].contains("mode=" + mode), r.out());
        assertTrue(lines[lines.length - 2].contains(clock == null ? "clock=wall" : "clock=thread-cpu"), r.out());
    }

    @ParameterizedTest
    @CsvSource({"single", "threads"})
    void cpuIsTheProcessCpuPerThousandTimedFrames(String mode) {
        // Long enough to time that the process's CPU clock cannot read 0: the engines ran for
        // every timed frame, so the figure is positive, and no more than the whole process's
        // CPU over the timed wall time allows (two cores at most per wall second, per 1,000 frames).
        Cli.Result r = Cli.run("bench", "--frames", "120", "--warmup", "10", "--min-seconds", "0.3", "--mode", mode);
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\\R");
        Matcher m = LAST.matcher(lines[lines.length - 1]);
        assertTrue(m.matches(), r.out());
        int passes = Integer.parseInt(m.group(1));
        double seconds = Double.parseDouble(m.group(2));
        double cpu = Double.parseDouble(m.group(4));
        assertTrue(seconds >= 0.3, r.out());
        assertTrue(cpu > 0, "a timed run of " + seconds + " s used CPU: " + r.out());
        int cores = Runtime.getRuntime().availableProcessors();
        assertTrue(cpu <= cores * seconds / (passes * 120 / 1000.0) + 0.01, r.out());
    }

    @Test
    void saysWhichShareOfTheCyclesWereSpinLoopsCounted() {
        // The demo waits for the NMI in a loop for most of each frame: the engine counts those
        // iterations instead of running them, and bench says how much of the timed run that was.
        Cli.Result r = Cli.run("bench", "--frames", "60", "--warmup", "10", "--min-seconds", "0");
        assertEquals(0, r.exit(), r.err());
        Matcher m = Pattern.compile("bench: (\\d+\\.\\d)% of the timed CPU cycles were spin-loop iterations counted, not run")
                .matcher(r.err());
        assertTrue(m.find(), r.err());
        double share = Double.parseDouble(m.group(1));
        assertTrue(share > 50 && share < 100, r.err());
    }

    @Test
    void noSpinSkipRunsEveryIterationOfTheSpinLoops() {
        Cli.Result r = Cli.run("bench", "--frames", "60", "--warmup", "10", "--min-seconds", "0", "--no-spin-skip");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("bench: 0.0% of the timed CPU cycles were spin-loop iterations counted"), r.err());
    }

    @Test
    void parkedCountsTheEngineThreadsTimeParkedOrBlocked() {
        java.util.List<lockstep.nes.verifier.EngineThreadTimes> t = java.util.List.of(
                new lockstep.nes.verifier.EngineThreadTimes("engine-A", 2_000_000_000L, 1_900_000_000L, 100),
                new lockstep.nes.verifier.EngineThreadTimes("engine-B", 2_000_000_000L, 1_500_000_000L, 300));
        assertEquals(10.0, BenchCommand.parkedPercent(t), 1e-9);
        assertEquals(-1, BenchCommand.parkedPercent(java.util.List.of(
                new lockstep.nes.verifier.EngineThreadTimes("engine-A", 1, 1, -1))));
    }

    @Test
    void untimedPassesRunUntilTheJitIsQuietAndTheHeaderSaysAfterHowMany() {
        Cli.Result r = Cli.run("bench", "--frames", "30", "--warmup", "5", "--min-seconds", "0", "--settle", "3");
        assertEquals(0, r.exit(), r.err());
        Matcher pass = Pattern.compile("bench: untimed pass (\\d+), the JIT compiled for (\\d+) ms of it").matcher(r.err());
        int untimed = 0;
        while (pass.find()) {
            untimed++;
            assertEquals(untimed, Integer.parseInt(pass.group(1)), r.err());
        }
        assertTrue(untimed >= 1 && untimed <= 3, "one to three untimed passes: " + r.err());
        String header = r.out().strip().split("\\R")[0];
        Matcher settled = Pattern.compile("settled=(no|(\\d+)-passes)$").matcher(header);
        assertTrue(settled.find(), header);
        if (settled.group(2) != null) {
            assertEquals(untimed, Integer.parseInt(settled.group(2)), r.err());
            assertTrue(r.err().contains("bench: the JIT settled after " + untimed + " untimed passes"), r.err());
        } else {
            assertEquals(3, untimed, "passes end early only once the JIT is quiet: " + r.err());
            assertTrue(r.err().contains("bench: the JIT had not settled after 3 untimed passes"), r.err());
        }
    }

    @Test
    void settleZeroTimesAtOnce() {
        Cli.Result r = Cli.run("bench", "--frames", "10", "--warmup", "2", "--min-seconds", "0", "--settle", "0");
        assertEquals(0, r.exit(), r.err());
        assertTrue(!r.err().contains("untimed pass"), r.err());
        assertTrue(r.out().contains("settled=no"), r.out());
    }

    @Test
    void aPassIsQuietWhenTheJitWorkedAtMostOnePercentOfIt() {
        assertTrue(JitSettle.quiet(0, 1_000_000));
        assertTrue(JitSettle.quiet(10, 1_000_000_000L));
        assertTrue(!JitSettle.quiet(11, 1_000_000_000L));
        assertTrue(!JitSettle.quiet(1, 1_000_000));
    }

    @Test
    void aNegativeSettleIsRefused() {
        Cli.Result r = Cli.run("bench", "--frames", "2", "--settle", "-1");
        assertEquals(2, r.exit());
        assertEquals("error: --settle must be at least 0, not -1", r.err().strip());
    }

    @Test
    void aBadModeIsOneLineAndExitTwo() {
        Cli.Result r = Cli.run("bench", "--frames", "2", "--mode", "both");
        assertEquals(2, r.exit());
        assertEquals("error: --mode must be single, lockstep, threads or strict, not 'both'", r.err().strip());
    }
}
