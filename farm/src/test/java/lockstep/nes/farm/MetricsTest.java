package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Store;
import lockstep.nes.verifier.MetricsServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker's /metrics: leases, renewals, kill switch, stale commits, jobs by state, retries and dead letters. */
class MetricsTest {
    @TempDir
    Path tmp;

    @Test
    void workerMetricsOnHttp() throws Exception {
        try (Store store = Store.open(tmp.resolve("farm.db").toString(), 4)) {
            long stale = store.submit("noop", List.of("{\"ms\":0}")).get(0);
            FarmMetrics metrics = new FarmMetrics();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
            SqlLockManager locks = new SqlLockManager(store.db(), false);

            // Job 1: the worker pauses before its commit while another claim (a newer token) takes the job.
            Worker.Options o = new Worker.Options();
            o.ttl = Duration.ofMillis(900);
            o.pauseBeforeCommitMillis = 1500;
            o.maxAttempts = 2;
            o.backoffBaseMillis = 1;
            o.backoffCapMillis = 5;
            Worker slow = new Worker(store, locks, Farm.runners(java.util.Map.of()), o, metrics, out);
            Thread t = new Thread(() -> {
                try {
                    while (!slow.runOne()) {
                        Thread.sleep(10);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            while (!log.toString(StandardCharsets.UTF_8).contains("committing with token")) {
                Thread.sleep(10);
            }
            int claimedId = Integer.parseInt(log.toString(StandardCharsets.UTF_8).replaceAll("(?s).*job (\\d+) committing.*", "$1"));
            long newer = Claims.takeOver(store, claimedId, "other");
            t.join();
            assertEquals(1, slow.staleCommits(), log.toString(StandardCharsets.UTF_8));
            assertTrue(store.claims().commit(claimedId, newer, "other", "ok", "{}"));

            // A lease lost while the job runs: the kill switch fires, the job stops and writes nothing.
            long longJob = store.submit("noop", List.of("{\"ms\":5000}")).get(0);
            o.pauseBeforeCommitMillis = 0;
            Worker w2 = new Worker(store, locks, Farm.runners(java.util.Map.of()), o, metrics, out);
            Thread t2 = new Thread(() -> {
                try {
                    while (!w2.runOne()) {
                        Thread.sleep(10);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            t2.start();
            while (!log.toString(StandardCharsets.UTF_8).contains("job " + longJob + " (noop) claimed")) {
                Thread.sleep(10);
            }
            try (var c = store.db().connection(); var st = c.createStatement()) {
                assertEquals(1, st.executeUpdate("DELETE FROM leases WHERE lock_key = 'job:" + longJob + "'"));
            }
            t2.join();
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("job " + longJob + " cancelled by the kill switch"),
                    log.toString(StandardCharsets.UTF_8));
            assertNull(store.checkpoint(longJob));
            assertEquals(Store.RUNNING, store.job(longJob).status());
            long tk = Claims.takeOver(store, longJob, "other");
            assertTrue(store.claims().commit(longJob, tk, "other", "ok", "{}"));

            // The rest: one commits, one fails twice and is dead-lettered.
            store.submit("noop", List.of("{\"ms\":0}", "{\"ms\":0,\"fail\":true}"));
            o.pauseBeforeCommitMillis = 0;
            o.exitWhenIdle = true;
            o.idlePoll = Duration.ofMillis(10);
            new Worker(store, locks, Farm.runners(java.util.Map.of()), o, metrics, out).run();
            assertEquals(1, store.deadLetters().size(), log.toString(StandardCharsets.UTF_8));

            ByteArrayOutputStream status = new ByteArrayOutputStream();
            assertEquals(0, Farm.status(tmp.resolve("farm.db").toString(), new PrintStream(status, true, StandardCharsets.UTF_8),
                    System.err));
            String st = status.toString(StandardCharsets.UTF_8);
            assertTrue(st.contains("jobs: 4 (0 queued, 0 running, 3 done, 1 dead)"), st);
            assertTrue(st.contains("dead letters: 1"), st);
            assertTrue(st.contains("2 attempt(s), last error: noop job told to fail"), st);

            try (MetricsServer server = new MetricsServer(0, metrics.prometheus(), null)) {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                String text = r.body();
                for (String want : List.of("farm_commits_stale_total 1.0", "farm_jobs{state=\"done\"} 3.0",
                        "farm_jobs{state=\"dead\"} 1.0", "farm_jobs_dead_total 1.0", "farm_jobs_failed_total 2.0",
                        "farm_leases_held{kind=\"sqlite\"} 0.0", "farm_lease_renewals_failed_total{kind=\"sqlite\"}",
                        "farm_lease_renewals_total{kind=\"sqlite\"}")) {
                    assertTrue(text.contains(want), "missing " + want + " in\n" + text);
                }
                assertTrue(text.contains("farm_killswitch_firings_total{cause=\"lost\",kind=\"sqlite\"} 1.0"), text);
                assertTrue(text.contains("farm_jobs_cancelled_total 1.0"), text);
            }
            assertTrue(stale > 0);
        }
    }
}
