package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lockstep.nes.farm.lock.Lease;
import lockstep.nes.farm.lock.SqlLockManager;
import lockstep.nes.farm.store.Database;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's fenced writes and the SQL lock managers, on SQLite and on a real PostgreSQL. */
class StoreTest {
    @TempDir
    Path tmp;

    @Test
    void sqliteFencing() throws Exception {
        fencing(tmp.resolve("farm.db").toString());
    }

    @Test
    void postgresFencing() throws Exception {
        fencing(PgServer.newDatabase());
    }

    @Test
    void sqliteCommitNeedsTheCurrentClaimsTokenAndOwner() throws Exception {
        exactFence(tmp.resolve("fence.db").toString());
    }

    @Test
    void postgresCommitNeedsTheCurrentClaimsTokenAndOwner() throws Exception {
        exactFence(PgServer.newDatabase());
    }

    /**
     * A token greater than the claim's but never issued to it (a foreign token), or the claim's
     * token presented by another owner, writes nothing; the live holder still commits.
     */
    private static void exactFence(String url) throws Exception {
        try (Store store = Store.open(url, 2)) {
            long id = store.submit("noop", List.of("{}")).get(0);
            Store.Job a = store.claims().claim(id, "A", 60_000, 5);
            long foreign = store.claims().nextToken() + 1_000;
            assertFalse(store.claims().saveCheckpoint(id, foreign, "A", 1, new byte[] {1}), "a foreign token checkpointed");
            assertFalse(store.claims().commit(id, foreign, "A", "pass", "{\"by\":\"foreign\"}"), "a foreign token committed");
            assertEquals(Store.FailOutcome.STALE, store.claims().fail(id, foreign, "A", "x", 5, 0));
            assertFalse(store.claims().commit(id, a.claimToken(), "B", "pass", "{\"by\":\"B\"}"), "another owner committed");
            assertTrue(store.claims().commit(id, a.claimToken(), "A", "pass", "{\"by\":\"A\"}"), "the live holder was refused");
            assertEquals("{\"by\":\"A\"}", store.report().get(0).resultJson());
        }
    }

    /**
     * A job whose holder died and which the coordinator queued again is still taken over before
     * the queue: by the candidates' "expired first" list and by the PostgreSQL batch claim.
     */
    @Test
    void postgresAJobRequeuedByTheCoordinatorIsStillTakenOverFirst() throws Exception {
        try (Store store = Store.open(PgServer.newDatabase(), 2)) {
            List<Long> ids = store.submit("noop", java.util.Collections.nCopies(20, "{}"));
            long last = ids.get(19);
            assertNotNull(store.claims().claim(last, "died", 60_000, 5));
            try (var c = store.db().connection(); var st = c.createStatement()) {
                st.executeUpdate("UPDATE jobs SET lease_until_ms = 1 WHERE job_id = " + last); // the lease lapsed
            }
            long term = store.coordinator().beginTerm("c");
            assertNotNull(store.coordinator().requeueExpired(term, "c"));
            assertEquals(Store.QUEUED, store.job(last).status());
            assertEquals(List.of(last), store.claims().takeovers(10, null));
            List<Store.LeasedClaim> batch = store.claims().acquireAndClaimBatch(1, "w", 10_000, 5);
            assertEquals(last, batch.get(0).job().id(), "the queue was served before the lapsed job");
        }
    }

    @Test
    void postgresBatchClaimAndReleaseInCommit() throws Exception {
        try (Store store = Store.open(PgServer.newDatabase(), 4)) {
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            List<Long> ids = store.submit("noop", List.of("{}", "{}", "{}", "{}", "{}"));
            // Someone else holds the first job's lease: a batch claim must leave that job alone.
            Lease held = locks.tryAcquire("job:" + ids.get(0), "X", Duration.ofSeconds(10)).orElseThrow();
            List<Store.LeasedClaim> first = store.claims().acquireAndClaimBatch(2, "A", 10_000, 5);
            List<Store.LeasedClaim> second = store.claims().acquireAndClaimBatch(8, "B", 10_000, 5);
            assertEquals(2, first.size());
            assertEquals(2, second.size(), "the held job and A's two are not claimable");
            java.util.Set<Long> claimedIds = new java.util.HashSet<>();
            java.util.Set<Long> tokens = new java.util.HashSet<>();
            for (Store.LeasedClaim lc : java.util.stream.Stream.concat(first.stream(), second.stream()).toList()) {
                assertNotNull(lc.job());
                assertTrue(claimedIds.add(lc.job().id()), "a job claimed twice");
                assertTrue(tokens.add(lc.lease().fencingToken()), "a token shared by two leases");
                assertTrue(lc.lease().fencingToken() > held.fencingToken());
                assertEquals(lc.lease().fencingToken(), lc.job().claimToken());
                assertEquals("job:" + lc.job().id(), lc.lease().key());
                assertTrue(locks.tryAcquire(lc.lease().key(), "Z", Duration.ofSeconds(1)).isEmpty(), "claim took no lease");
            }
            assertFalse(claimedIds.contains(ids.get(0)));
            // A commit carrying the lease deletes it only when the fenced write succeeded.
            Store.LeasedClaim a = first.get(0);
            long id = a.job().id();
            Lease stale = new Lease(a.lease().key(), "A", a.lease().fencingToken() - 1_000, 10_000, a.lease().validUntilNanos());
            assertFalse(store.claims().commit(id, stale.fencingToken(), "A", "pass", "{}", stale));
            assertTrue(locks.tryAcquire(a.lease().key(), "Z", Duration.ofSeconds(1)).isEmpty(), "a rejected commit released the lease");
            assertTrue(store.claims().commit(id, a.lease().fencingToken(), "A", "pass", "{}", a.lease()));
            assertTrue(locks.tryAcquire(a.lease().key(), "Z", Duration.ofSeconds(1)).isPresent(), "commit kept the lease");
            assertFalse(store.claims().commit(id, a.lease().fencingToken(), "A", "pass", "{}", a.lease()), "committed twice");
        }
    }

    /** A store created before Flyway (schema_version at 1, no Flyway history) is taken as version 1. */
    @Test
    void storeMigratedBeforeFlywayIsBaselined() throws Exception {
        Path file = tmp.resolve("old.db");
        String v1;
        try (var in = Database.class.getResourceAsStream("sqlite/V1__farm.sql")) {
            v1 = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file); var st = c.createStatement()) {
            for (String sql : v1.replaceAll("(?m)^--.*$", "").split(";\\s*\\n")) {
                if (!sql.isBlank()) {
                    st.execute(sql);
                }
            }
            st.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, "
                    + "applied_ms BIGINT NOT NULL)");
            st.execute("INSERT INTO schema_version VALUES (1, 'farm', 0)");
            st.execute("INSERT INTO jobs (kind, spec, status, submitted_ms, updated_ms) VALUES ('noop', '{}', 'queued', 0, 0)");
        }
        try (Store store = Store.open(file.toString(), 2)) {
            assertEquals(Database.latestVersion(), store.db().schemaVersion());
            assertEquals(2, store.submit("noop", List.of("{}")).get(0));
            assertNotNull(store.claims().claim(1, "A", 10_000, 5));
        }
    }

    private static void fencing(String url) throws Exception {
        try (Store store = Store.open(url, 4)) {
            assertEquals(Database.latestVersion(), store.db().schemaVersion());
            // Migrating twice is a no-op.
            store.db().migrate();
            SqlLockManager locks = new SqlLockManager(store.db(), false);
            List<Long> ids = store.submit("noop", List.of("{}", "{}"));
            long id = ids.get(0);

            Lease la = locks.tryAcquire("job:" + id, "A", Duration.ofMillis(300)).orElseThrow();
            assertTrue(locks.tryAcquire("job:" + id, "B", Duration.ofMillis(300)).isEmpty(), "held lease acquired twice");
            Store.Job a = store.claims().claim(id, "A", 300, 5);
            assertNotNull(a);
            assertNull(store.claims().claim(id, "B", 300, 5), "a live lease claimed twice");
            assertTrue(locks.renew(la).isPresent());
            Thread.sleep(400);
            assertTrue(locks.renew(la).isEmpty(), "an expired lease was renewed");
            Lease lb = locks.tryAcquire("job:" + id, "B", Duration.ofSeconds(10)).orElseThrow();
            assertTrue(lb.fencingToken() > la.fencingToken(), "tokens must increase");
            Store.Job b = store.claims().claim(id, "B", 10_000, 5);
            assertNotNull(b);
            assertTrue(b.claimToken() > a.claimToken(), "tokens must increase");
            // A, a zombie, writes nothing: not a checkpoint, not a failure, not a result.
            assertFalse(store.claims().saveCheckpoint(id, a.claimToken(), "A", 60, new byte[] {1}));
            assertEquals(Store.FailOutcome.STALE, store.claims().fail(id, a.claimToken(), "A", "x", 3, 0));
            assertFalse(store.claims().commit(id, a.claimToken(), "A", "pass", "{\"by\":\"A\"}"));
            // B checkpoints and commits, once.
            assertTrue(store.claims().saveCheckpoint(id, b.claimToken(), "B", 60, new byte[] {2}));
            assertEquals(60, store.checkpoint(id).frame());
            assertTrue(store.claims().commit(id, b.claimToken(), "B", "pass", "{\"by\":\"B\"}"));
            assertFalse(store.claims().commit(id, b.claimToken(), "B", "pass", "{\"by\":\"B\"}"), "committed twice");
            // A later token cannot commit a finished job either.
            assertNull(store.claims().claim(id, "C", 1000, 5));
            assertFalse(store.claims().commit(id, store.claims().nextToken(), "C", "pass", "{}"));
            locks.release(lb);
            assertTrue(locks.tryAcquire("job:" + id, "D", Duration.ofSeconds(1)).isPresent(), "released lease still held");

            List<Store.ReportRow> report = store.report();
            assertEquals(2, report.size());
            assertEquals("done", report.get(0).status());
            assertEquals("{\"by\":\"B\"}", report.get(0).resultJson());
            assertEquals(b.claimToken(), report.get(0).fencingToken());

            // Failures retry, then land in the dead letter table.
            long id2 = ids.get(1);
            for (int i = 1; i <= 2; i++) {
                long t = store.claims().claim(id2, "W", 1000, 5).claimToken();
                Store.FailOutcome o = store.claims().fail(id2, t, "W", "boom " + i, 2, 0);
                assertEquals(i < 2 ? Store.FailOutcome.RETRY : Store.FailOutcome.DEAD, o);
            }
            assertEquals(List.of(id2), store.deadLetters().stream().map(Store.DeadLetter::jobId).toList());
            assertEquals("boom 2", store.deadLetters().get(0).lastError());
            Map<String, Integer> counts = store.countsByStatus();
            assertEquals(1, counts.get("done"));
            assertEquals(1, counts.get("dead"));
            assertEquals(0, store.unfinished(null));
            assertTrue(store.claims().candidates(10, null).isEmpty());

            // Static partitions split the queue without overlap.
            List<Long> more = store.submit("noop", java.util.Collections.nCopies(10, "{}"));
            List<Long> p0 = store.claims().candidates(100, new Store.Partition(0, 2));
            List<Long> p1 = store.claims().candidates(100, new Store.Partition(1, 2));
            assertEquals(10, p0.size() + p1.size());
            assertTrue(p0.stream().allMatch(x -> x % 2 == 0) && p1.stream().allMatch(x -> x % 2 == 1));
            assertTrue(p0.containsAll(more.stream().filter(x -> x % 2 == 0).toList()));
            assertEquals(new Store.Partition(3, 4), Store.Partition.parse("3/4"));
            assertThrows(IllegalArgumentException.class, () -> Store.Partition.parse("4/4"));

            // The coordinator's term fences its writes.
            long t1 = store.coordinator().beginTerm("c1");
            assertNotNull(store.coordinator().requeueExpired(t1, "c1"));
            long t2 = store.coordinator().beginTerm("c2");
            assertTrue(t2 > t1);
            assertNotNull(store.coordinator().requeueExpired(t2, "c2"));
            assertNull(store.coordinator().requeueExpired(t1, "c1"), "an old term wrote");
            assertEquals(t2, store.coordinator().coordinatorTerm().term());
        }
    }
}
