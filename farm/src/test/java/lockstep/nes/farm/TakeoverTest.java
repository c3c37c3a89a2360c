package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker processes losing their jobs: one paused with SIGSTOP past its TTL right before its
 * commit (the commit is rejected when it wakes up, and the report has one row for the job), and
 * one killed (its job is taken over once the TTL has passed). On PostgreSQL and on SQLite.
 */
class TakeoverTest {
    static final String TTL = "1500";

    @TempDir
    Path tmp;

    @Test
    void pausedWorkerIsFencedPostgres() throws Exception {
        pausedWorkerIsFenced(PgServer.newDatabase());
    }

    @Test
    void pausedWorkerIsFencedSqlite() throws Exception {
        pausedWorkerIsFenced(tmp.resolve("farm.db").toString());
    }

    @Test
    void killedWorkersJobIsTakenOverPostgres() throws Exception {
        killedWorkersJobIsTakenOver(PgServer.newDatabase());
    }

    @Test
    void killedWorkersJobIsTakenOverSqlite() throws Exception {
        killedWorkersJobIsTakenOver(tmp.resolve("farm.db").toString());
    }

    private void pausedWorkerIsFenced(String url) throws Exception {
        long id;
        try (Store store = Store.open(url, 2)) {
            id = store.submit("noop", List.of("{\"ms\":200}")).get(0);
        }
        try (WorkerProcess a = WorkerProcess.start(tmp, "a", "worker", "--store", url, "--ttl-ms", TTL, "--margin-ms", "300",
                "--pause-before-commit-ms", "3000", "--exit-when-idle", "--idle-poll-ms", "100")) {
            long tokenA = Long.parseLong(a.await("job " + id + " committing with token (\\d+)", 60_000));
            a.stop();
            Thread.sleep(Long.parseLong(TTL) + 500);
            long tokenB;
            try (WorkerProcess b = WorkerProcess.start(tmp, "b", "worker", "--store", url, "--ttl-ms", TTL,
                    "--exit-when-idle", "--idle-poll-ms", "100")) {
                tokenB = Long.parseLong(b.await("job " + id + " COMMITTED with token (\\d+)", 60_000));
                assertEquals(0, b.waitFor(30_000), b.output());
            }
            assertTrue(tokenB > tokenA, "takeover token " + tokenB + " must exceed " + tokenA);
            a.resume();
            a.await("job " + id + " STALE: commit of job " + id + " rejected", 30_000);
            assertEquals(0, a.waitFor(30_000), a.output());
            assertFalse(a.output().contains("COMMITTED"), a.output());

            JsonNode report = new ObjectMapper().readTree(report(url)).get("jobs");
            assertEquals(1, report.size(), report.toString());
            assertEquals(id, report.get(0).get("job_id").asLong());
            assertEquals("done", report.get(0).get("status").asText());
            assertEquals("ok", report.get(0).get("result").asText());
            assertEquals(tokenB, report.get(0).get("fencing_token").asLong());
            assertEquals(2, report.get(0).get("attempts").asInt());
            try (Store store = Store.open(url, 2); var c = store.db().connection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT count(*), min(fencing_token) FROM results WHERE job_id = " + id)) {
                r.next();
                assertEquals(1, r.getInt(1));
                assertEquals(tokenB, r.getLong(2));
                assertEquals(1, store.attemptCounts().get("stale"));
            }
        }
    }

    private void killedWorkersJobIsTakenOver(String url) throws Exception {
        long id;
        try (Store store = Store.open(url, 2)) {
            id = store.submit("noop", List.of("{\"ms\":2000}")).get(0);
        }
        long tokenA;
        try (WorkerProcess a = WorkerProcess.start(tmp, "a", "worker", "--store", url, "--ttl-ms", TTL, "--idle-poll-ms", "100")) {
            tokenA = Long.parseLong(a.await("job " + id + " \\(noop\\) claimed with token (\\d+)", 60_000));
            a.kill();
        }
        long tokenB;
        try (WorkerProcess b = WorkerProcess.start(tmp, "b", "worker", "--store", url, "--ttl-ms", TTL, "--exit-when-idle",
                "--idle-poll-ms", "50")) {
            tokenB = Long.parseLong(b.await("job " + id + " COMMITTED with token (\\d+)", 60_000));
            assertEquals(0, b.waitFor(30_000), b.output());
        }
        assertTrue(tokenB > tokenA);
        try (Store store = Store.open(url, 2); var c = store.db().connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT fencing_token, started_ms, outcome FROM attempts WHERE job_id = " + id
                     + " ORDER BY fencing_token")) {
            List<long[]> rows = new ArrayList<>();
            List<String> outcomes = new ArrayList<>();
            while (r.next()) {
                rows.add(new long[] {r.getLong(1), r.getLong(2)});
                outcomes.add(r.getString(3));
            }
            assertEquals(List.of("abandoned", "committed"), outcomes);
            long gap = rows.get(1)[1] - rows.get(0)[1];
            // The lease was taken over only after it expired (store clock), never before.
            assertTrue(gap >= Long.parseLong(TTL), "taken over " + gap + " ms after the claim, before the TTL");
            assertEquals(Store.DONE, store.job(id).status());
        }
    }

    static String report(String url) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Farm.report(url, true, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
