package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL store that refuses the password is one line (exit 2, the password never shown)
 * within seconds, for every farm command: one login attempt, no pool retrying until its
 * connection timeout.
 */
class StoreCredentialsTest {
    /**
     * In a running JVM one refused login takes tens of milliseconds; a connection pool's first
     * attempt alone adds a pause of a second after the failure, and its retries many more.
     */
    private static final long BOUND_MS = 900;
    /** A whole farm command in a fresh JVM, start-up included, on a loaded 2-core machine. */
    private static final long PROCESS_BOUND_MS = 5_000;

    private record Run(int exit, String err, long millis) {
    }

    private static Run run(BiFunction<PrintStream, PrintStream, Integer> command) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int exit = command.apply(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, err.toString(StandardCharsets.UTF_8), (System.nanoTime() - t0) / 1_000_000);
    }

    private static void refused(Run r, String secret) {
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("password authentication failed"), r.err());
        assertFalse(r.err().contains(secret), "the password shows: " + r.err());
        assertTrue(r.millis() < BOUND_MS, "took " + r.millis() + " ms: " + r.err());
    }

    @TempDir
    Path tmp;

    @Test
    void aWrongPasswordIsRefusedInOneLineWithinSeconds() throws Exception {
        String right = PgServer.newPasswordDatabase("Right-pw-1");
        assertEquals(0, run((o, e) -> Farm.submit(right, "noop", List.of("{}"), o, e)).exit());
        String wrong = right.replace(":Right-pw-1@", ":Wr0ng-secret@");
        refused(run((o, e) -> Farm.submit(wrong, "noop", List.of("{}"), o, e)), "Wr0ng-secret");
        refused(run((o, e) -> Farm.status(wrong, o, e)), "Wr0ng-secret");
        Farm.WorkerArgs w = new Farm.WorkerArgs();
        w.store = wrong;
        w.exitWhenIdle = true;
        refused(run((o, e) -> Farm.worker(w, o, e)), "Wr0ng-secret");
        Farm.CoordinatorArgs c = new Farm.CoordinatorArgs();
        c.store = wrong;
        c.periods = 1;
        refused(run((o, e) -> Farm.coordinator(c, o, e)), "Wr0ng-secret");
        long t0 = System.nanoTime();
        try (WorkerProcess p = WorkerProcess.start(tmp, "worker", "worker", "--store", wrong, "--exit-when-idle")) {
            assertEquals(2, p.waitFor(30_000), p.output());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < PROCESS_BOUND_MS, "a worker process took " + ms + " ms to refuse: " + p.output());
            assertEquals(1, p.output().strip().lines().count(), p.output());
            assertFalse(p.output().contains("Wr0ng-secret"), p.output());
        }
        // the right password still works: the refusal is the password's, not the server's
        Farm.WorkerArgs ok = new Farm.WorkerArgs();
        ok.store = right;
        ok.exitWhenIdle = true;
        Run r = run((o, e) -> Farm.worker(ok, o, e));
        assertEquals(0, r.exit(), r.err());
    }
}
