package lockstep.nes.app;


import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import lockstep.nes.core.TestRoms;
import lockstep.nes.farm.job.CanaryJob;
import lockstep.nes.farm.job.JobContext;
import lockstep.nes.farm.job.JobResult;
import lockstep.nes.farm.lock.KillSwitch;
import lockstep.nes.farm.lock.KilledException;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lockstep farm}: bad input, a test-roms job end to end on SQLite, and a canary job resumed from its checkpoint. */
class FarmCommandTest {
    @TempDir
    Path tmp;

    private static void oneLineExit2(Cli.Result r, String mention) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(mention), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Test
    void badStoreUrlsAndArguments() {
        oneLineExit2(Cli.run("farm", "status", "--store", "mysql://u@h/db"), "unsupported store URL");
        oneLineExit2(Cli.run("farm", "report", "--store", "postgresql://u@/db"), "no host");
        oneLineExit2(Cli.run("farm", "report", "--store", "postgresql://u@localhost:5432"), "no database name");
        oneLineExit2(Cli.run("farm", "status", "--store", tmp.resolve("missing/farm.db").toString()), "does not exist");
        oneLineExit2(Cli.run("farm", "worker", "--store", tmp.resolve("f.db").toString(), "--partition", "3/2"), "partition");
        try (Store created = Store.open(tmp.resolve("f.db").toString(), 1)) {
            assertEquals(0, created.unfinished(null));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        oneLineExit2(Cli.run("farm", "worker", "--store", tmp.resolve("f.db").toString(), "--locks", "zookeeper://x:1"),
                "unknown lock manager");
        oneLineExit2(Cli.run("farm", "submit", "--store", tmp.resolve("f.db").toString(), "test-roms",
                tmp.resolve("nope.nes").toString()), "nope.nes");
        oneLineExit2(Cli.run("farm", "submit", "--store", tmp.resolve("f.db").toString(), "canary", "--baseline",
                tmp.resolve("a.jar").toString(), "--candidate", tmp.resolve("b.jar").toString(), "--rom", "builtin:demo"), "a.jar");
    }

    @Test
    void refusedValuesAndSecretFiles() throws Exception {
        Path rom = java.nio.file.Files.write(tmp.resolve("random.nes"), new byte[] {'N', 'E', 'S', 0x1a, 1, 1, 0, 0});
        oneLineExit2(Cli.run("farm", "submit", "--store", rom.toString(), "test-roms", rom.toString()), "not a SQLite database");
        String missing = tmp.resolve("none.db").toString();
        oneLineExit2(Cli.run("farm", "worker", "--store", missing, "--exit-when-idle"), "'farm submit' creates one");
        oneLineExit2(Cli.run("farm", "coordinator", "--store", missing), "'farm submit' creates one");
        assertFalse(java.nio.file.Files.exists(Path.of(missing)), "a worker created the store");
        oneLineExit2(Cli.run("farm", "submit", "--store", missing), "needs a job kind: test-roms or canary");
        oneLineExit2(Cli.run("farm", "status", "--store", "mysql://root:Hunter2x@db/farm"), "root:***@");
        assertFalse(Cli.run("farm", "status", "--store", "mysql://root:Hunter2x@db/farm").err().contains("Hunter2x"));
        // a store to point the rest at, named by a file (the password stays out of ps)
        String db = tmp.resolve("farm.db").toString();
        Path urlFile = java.nio.file.Files.writeString(tmp.resolve("store-url"), db + "\n");
        Path romFile = TestRoms.require("instr_test-v5/rom_singles/01-basics.nes");
        Cli.Result s = Cli.run("farm", "submit", "--store-file", urlFile.toString(), "test-roms", romFile.toString());
        assertEquals(0, s.exit(), s.err());
        Cli.Result st = Cli.run("farm", "status", "--store-file", urlFile.toString());
        assertEquals(0, st.exit(), st.err());
        assertTrue(st.out().contains("jobs: 1 (1 queued"), st.out());
        oneLineExit2(Cli.run("farm", "status", "--store", db, "--store-file", urlFile.toString()), "give one of them");
        oneLineExit2(Cli.run("farm", "status", "--store-file", tmp.resolve("nope").toString()), "no such file");
        oneLineExit2(Cli.run("farm", "cancel", "--store", db, "1", "42"), "cancel: no job 42");
        oneLineExit2(Cli.run("farm", "requeue", "--store", db, "42"), "requeue: no job 42");
        oneLineExit2(Cli.run("farm", "worker", "--store", db, "--locks", "redis://farm@127.0.0.1:6379"), "a user without a password");
        oneLineExit2(Cli.run("farm", "worker", "--store", db, "--locks", "redis://127.0.0.1:1?timeout=300"), "cannot reach the server");
        oneLineExit2(Cli.run("farm", "coordinator", "--store", db, "--locks", "etcd://127.0.0.1:1?timeout=300"),
                "cannot reach the server");
        oneLineExit2(Cli.run("farm", "coordinator", "--store", db, "--period", "0"), "--period must be at least 10 ms");
        oneLineExit2(Cli.run("farm", "worker", "--store", db, "--safety-margin", "-5"), "--safety-margin must be at least 0");
        oneLineExit2(Cli.run("farm", "worker", "--store", db, "--roms", tmp.resolve("no-roms").toString()), "no such folder");
        try (Store store = Store.open(db, 2)) {
            assertEquals(0, store.job(1).attempts(), "a refused worker claimed a job");
        }
        assertTrue(Cli.run("farm", "worker", "--help").out().contains("each still under its lease"));
    }

    @Test
    void testRomsJobsEndToEndOnSqlite() throws Exception {
        Path rom = TestRoms.require("instr_test-v5/rom_singles/01-basics.nes");
        String db = tmp.resolve("farm.db").toString();
        Cli.Result s = Cli.run("farm", "submit", "--store", db, "test-roms", rom.toString());
        assertEquals(0, s.exit(), s.err());
        assertTrue(s.out().contains("submitted 1 test-roms job(s): id 1"), s.out());
        Cli.Result w = Cli.run("farm", "worker", "--store", db, "--exit-when-idle", "--partition", "0/1");
        assertEquals(0, w.exit(), w.err());
        assertTrue(w.out().contains("job 1 COMMITTED with token"), w.out());
        Cli.Result j = Cli.run("farm", "report", "--store", db, "--json");
        assertEquals(0, j.exit(), j.err());
        JsonNode root = new ObjectMapper().readTree(j.out());
        assertEquals(List.of("run", "jobs"), iterator(root));
        JsonNode job = root.get("jobs").get(0);
        assertEquals(List.of("job_id", "run", "kind", "rom", "status", "outcome", "result", "attempts", "failed_attempts",
                "abandoned_attempts", "fencing_token", "duration_ms", "last_error"), iterator(job));
        assertEquals(1, job.get("job_id").asLong());
        assertEquals("done", job.get("status").asText());
        assertEquals("pass", job.get("result").asText());
        assertTrue(job.get("fencing_token").asLong() > 0);
        Cli.Result st = Cli.run("farm", "status", "--store", db);
        assertEquals(0, st.exit(), st.err());
        assertTrue(st.out().contains("jobs: 1 (0 queued, 0 running, 1 done, 0 dead)"), st.out());
        assertTrue(st.out().contains("dead letters: 0"), st.out());
        Cli.Result text = Cli.run("farm", "report", "--store", db);
        assertTrue(text.out().contains("01-basics.nes"), text.out());
    }

    @Test
    void requeueCancelAndRunsFromTheCommandLine() throws Exception {
        String db = tmp.resolve("ops.db").toString();
        Path rom = TestRoms.require("instr_test-v5/rom_singles/01-basics.nes");
        assertEquals(0, Cli.run("farm", "submit", "--store", db, "--run", "nightly", "test-roms", rom.toString()).exit());
        assertEquals(0, Cli.run("farm", "submit", "--store", db, "test-roms", "--run", "adhoc", rom.toString()).exit());
        Cli.Result c = Cli.run("farm", "cancel", "--store", db, "2");
        assertEquals(0, c.exit(), c.err());
        assertEquals("cancelled 1 job(s)", c.out().strip());
        Cli.Result r = Cli.run("farm", "report", "--store", db, "--run", "adhoc", "--json");
        JsonNode jobs = new ObjectMapper().readTree(r.out()).get("jobs");
        assertEquals(1, jobs.size(), r.out());
        assertEquals("cancelled", jobs.get(0).get("outcome").asText());
        Cli.Result q = Cli.run("farm", "requeue", "--store", db, "--all");
        assertEquals("requeued 1 job(s)", q.out().strip(), q.err());
        oneLineExit2(Cli.run("farm", "requeue", "--store", db), "--all");
    }

    private static List<String> iterator(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void canaryJobResumesFromItsCheckpoint() throws Exception {
        Path jar = BuildCopy.build(tmp, "build", null, null);
        String db = tmp.resolve("farm.db").toString();
        Cli.Result s = Cli.run("farm", "submit", "--store", db, "canary", "--baseline", jar.toString(), "--candidate",
                jar.toString(), "--rom", "builtin:demo", "--frames", "300", "--checkpoint-every", "30");
        assertEquals(0, s.exit(), s.err());
        try (Store store = Store.open(db, 2)) {
            long id = 1;
            // First attempt: its kill switch fires once two checkpoints are stored (a lost lease).
            Store.Job job = store.claims().claim(id, "first", 60_000, 5);
            long t1 = job.claimToken();
            KillSwitch ks = new KillSwitch();
            AtomicReference<Throwable> watcher = new AtomicReference<>();
            Thread w = new Thread(() -> {
                try {
                    while (!ks.fired()) {
                        Store.Checkpoint cp = store.checkpoint(id);
                        if (cp != null && cp.frame() >= 60) {
                            ks.fire("test: lease lost");
                        }
                        Thread.sleep(5);
                    }
                } catch (Exception e) {
                    watcher.set(e);
                }
            });
            w.start();
            CanaryJob runner = new CanaryJob();
            assertThrows(KilledException.class, () -> runner.run(new JobContext(store, job, t1, "first", ks)));
            w.join();
            assertNull(watcher.get());
            int stopped = store.checkpoint(id).frame();
            assertTrue(stopped >= 60 && stopped < 300, "checkpoint at " + stopped);
            assertEquals(t1, store.checkpoint(id).fencingToken());

            // The retry, under a newer token, resumes there and finishes.
            try (var c = store.db().connection(); var st = c.createStatement()) {
                st.executeUpdate("UPDATE jobs SET lease_until_ms = 0 WHERE job_id = " + id); // the first lease expires
            }
            Store.Job again = store.claims().claim(id, "second", 60_000, 5);
            assertNotNull(again);
            long t2 = again.claimToken();
            JobResult r = runner.run(new JobContext(store, again, t2, "second", new KillSwitch()));
            assertEquals("pass", r.status(), r.json());
            JsonNode result = new ObjectMapper().readTree(r.json());
            assertTrue(result.get("resumed_from_frame").asInt() >= stopped, r.json());
            assertEquals(300, result.get("frames_logged").asInt(), r.json());
            assertEquals(300, result.get("framesCompared").asInt(), r.json());
            // The first attempt, a zombie now, can store nothing.
            assertFalse(store.claims().saveCheckpoint(id, t1, "first", 200, new byte[] {1}));
            assertTrue(store.claims().commit(id, t2, "second", r.status(), r.json()));
            assertFalse(store.claims().commit(id, t1, "first", "pass", "{}"));
        }
        Cli.Result j = Cli.run("farm", "report", "--store", db, "--json");
        assertTrue(j.out().contains("\"status\":\"done\",\"outcome\":\"pass\",\"result\":\"pass\""), j.out());
    }
}
