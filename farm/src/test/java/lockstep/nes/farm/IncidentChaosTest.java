package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.farm.lock.LocalServer;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators and servers do to a running multi-process farm, beside the pauses and kills of
 * {@link LockBackendChaosTest}:
 * <ul>
 *   <li>Redis's password changed under it (and its clients disconnected), or etcd's root password
 *       changed under it (its tokens invalidated): every worker and coordinator
 *       stops with one line and exit 2, the password never shown, the running jobs given back,
 *       nothing committed twice; workers started with the new password finish the run;</li>
 *   <li>etcd with authentication wiped and started again empty with authentication on, while a
 *       worker holding jobs is stopped with SIGTERM (its claims given back uncharged), a commit
 *       carrying a token never issued to a job's current claim is refused and the live holder
 *       then commits, all in a database that holds another application's tables: the farm
 *       keeps to its own schema and those tables are untouched.</li>
 * </ul>
 */
@Timeout(300)
class IncidentChaosTest {
    private static final Pattern CLAIMED = Pattern.compile("job (\\d+) \\(noop\\) claimed with token (\\d+)");
    static final String OLD_PW = "0ld-Secret";
    static final String NEW_PW = "N3w-Secret";
    static final long TTL = 2000;

    @TempDir
    Path tmp;

    @Test
    void aRedisPasswordChangedUnderTheFarmStopsItCleanly() throws Exception {
        int port = LocalServer.freePort();
        try (LocalServer redis = LocalServer.redisWithPassword(port, OLD_PW)) {
            passwordChanged("redis://:%s@127.0.0.1:" + port + "?timeout=500", () -> {
                redisCommands(port, "AUTH " + OLD_PW, "CONFIG SET requirepass " + NEW_PW, "CLIENT KILL TYPE normal");
                return null;
            });
        }
    }

    @Test
    void anEtcdPasswordChangedUnderTheFarmStopsItCleanly() throws Exception {
        int port = LocalServer.freePort();
        try (LocalServer etcd = LocalServer.etcd(port)) {
            EtcdAuthRestartTest.enableAuth(port, OLD_PW);
            passwordChanged("etcd://root:%s@127.0.0.1:" + port + "?timeout=500", () -> {
                ByteSequence root = ByteSequence.from("root", StandardCharsets.UTF_8);
                try (Client admin = Client.builder().endpoints("http://127.0.0.1:" + port).user(root)
                        .password(ByteSequence.from(OLD_PW, StandardCharsets.UTF_8)).build()) {
                    admin.getAuthClient().userChangePassword(root, ByteSequence.from(NEW_PW, StandardCharsets.UTF_8))
                            .get(10, TimeUnit.SECONDS);
                }
                return null;
            });
        }
    }

    /** Sends Redis commands (inline form) on one connection and reads one reply line each. */
    private static void redisCommands(int port, String... commands) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (String c : commands) {
                out.write((c + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                StringBuilder line = new StringBuilder();
                for (int b; (b = in.read()) != -1 && b != '\n'; ) {
                    line.append((char) b);
                }
                if (c.startsWith("CLIENT KILL")) {
                    continue; // it may have closed this connection too
                }
                assertTrue(line.toString().startsWith("+OK"), c.split(" ")[0] + " answered " + line);
            }
        }
    }

    private void passwordChanged(String locksFormat, java.util.concurrent.Callable<Void> change) throws Exception {
        String url = PgServer.newDatabase();
        int jobs = 24;
        try (Store store = Store.open(url, 2)) {
            store.submit("noop", Collections.nCopies(jobs, "{\"ms\":150}"));
        }
        String oldLocks = String.format(locksFormat, OLD_PW);
        List<String> workerArgs = List.of("worker", "--store", url, "--locks", oldLocks, "--ttl-ms", Long.toString(TTL),
                "--idle-poll-ms", "50");
        List<WorkerProcess> farm = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                farm.add(WorkerProcess.start(tmp, "w" + i, workerArgs.toArray(String[]::new)));
            }
            farm.add(WorkerProcess.start(tmp, "c", "coordinator", "--store", url, "--locks", oldLocks, "--ttl-ms",
                    Long.toString(TTL), "--period-ms", "200"));
            farm.get(2).await("won the lock", 60_000);
            try (Store store = Store.open(url, 2)) {
                long end = System.nanoTime() + 60_000_000_000L;
                while (store.countsByStatus().get(Store.DONE) < 4) {
                    assertTrue(System.nanoTime() < end, "the farm did not start working");
                    Thread.sleep(50);
                }
            }
            change.call();
            long t0 = System.nanoTime();
            for (WorkerProcess p : farm) {
                assertEquals(2, p.waitFor(30_000), p.output());
            }
            long stoppedMs = (System.nanoTime() - t0) / 1_000_000;
            for (WorkerProcess p : farm) {
                String out = p.output();
                List<String> errors = out.lines().filter(l -> l.startsWith("error:")).toList();
                assertEquals(1, errors.size(), out);
                assertTrue(errors.get(0).contains("refused the credentials"), out);
                assertFalse(out.contains(OLD_PW) || out.contains(NEW_PW), "a password shows:\n" + out);
                assertFalse(out.contains("\tat "), "a stack trace:\n" + out);
            }
            int given;
            try (Store store = Store.open(url, 2); Connection c = store.db().connection(); Statement s = c.createStatement()) {
                assertEquals(0, count(s, "SELECT count(*) FROM jobs WHERE status = 'running'"), "a stopped worker's job is still held");
                assertEquals(0, count(s, "SELECT count(*) FROM attempts WHERE outcome = 'running'"), "an attempt left open");
                given = count(s, "SELECT count(*) FROM attempts WHERE outcome = 'released'");
            }
            // the new password: the run is finished, every job once
            String newLocks = String.format(locksFormat, NEW_PW);
            List<WorkerProcess> again = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                again.add(WorkerProcess.start(tmp, "again" + i, "worker", "--store", url, "--locks", newLocks, "--ttl-ms",
                        Long.toString(TTL), "--idle-poll-ms", "50", "--exit-when-idle"));
            }
            farm.addAll(again);
            for (WorkerProcess p : again) {
                assertEquals(0, p.waitFor(120_000), p.output());
            }
            try (Store store = Store.open(url, 2); Connection c = store.db().connection(); Statement s = c.createStatement()) {
                exactlyOnce(s, jobs);
            }
            System.out.printf("farm chaos, %s password changed under 2 workers and a coordinator: all stopped with one line "
                    + "(exit 2) within %d ms, %d running job(s) given back, %d/%d committed exactly once with the new password%n",
                    locksFormat.substring(0, locksFormat.indexOf(':')), stoppedMs, given, jobs, jobs);
        } finally {
            for (WorkerProcess p : farm) {
                p.close();
            }
        }
    }

    private static int count(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getInt(1);
        }
    }

    /** Every job one result, one committed attempt, no commit accepted after a newer claim began. */
    private static void exactlyOnce(Statement s, int jobs) throws Exception {
        assertEquals(jobs, count(s, "SELECT count(*) FROM results"), "results");
        assertEquals(jobs, count(s, "SELECT count(DISTINCT job_id) FROM results"), "jobs with a result");
        assertEquals(jobs, count(s, "SELECT count(*) FROM attempts WHERE outcome = 'committed'"), "committed attempts");
        assertEquals(0, count(s, "SELECT count(*) FROM results r WHERE EXISTS (SELECT 1 FROM attempts a WHERE "
                + "a.job_id = r.job_id AND a.fencing_token > r.fencing_token AND a.started_ms <= r.committed_ms)"),
                "commits accepted after a newer claim");
    }

    @Test
    void etcdWithAuthWipedSigtermAndAForeignTokenInADatabaseOfAnotherApplication() throws Exception {
        String db = PgServer.newDatabase();
        String jdbc = "jdbc:postgresql://" + db.substring(db.indexOf('@') + 1);
        String user = db.substring(db.indexOf("://") + 3, db.indexOf('@'));
        // another application's data, and the schema its administrator gave the farm
        try (Connection c = DriverManager.getConnection(jdbc, user, null); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE invoices (id int PRIMARY KEY, amount int)");
            s.execute("CREATE TABLE jobs (id int PRIMARY KEY, title text)"); // a name the farm uses too
            s.execute("INSERT INTO invoices VALUES (1, 100), (2, 250), (3, 75)");
            s.execute("INSERT INTO jobs VALUES (1, 'plumber')");
            s.execute("CREATE SCHEMA farm");
        }
        String url = db + "?currentSchema=farm";
        int jobs = 30;
        long foreignJob;
        try (Store store = Store.open(url, 2)) {
            store.submit("noop", Collections.nCopies(jobs - 1, "{\"ms\":100}"));
            foreignJob = store.submit("noop", List.of("{\"ms\":4000}")).get(0);
        }
        int port = LocalServer.freePort();
        LocalServer etcd = LocalServer.etcd(port);
        EtcdAuthRestartTest.enableAuth(port, OLD_PW);
        String locks = "etcd://root:" + OLD_PW + "@127.0.0.1:" + port + "?timeout=500";
        List<String> workerArgs = List.of("worker", "--store", url, "--locks", locks, "--ttl-ms", Long.toString(TTL),
                "--idle-poll-ms", "50", "--exit-when-idle");
        List<WorkerProcess> all = new ArrayList<>();
        List<WorkerProcess> live = new ArrayList<>();
        List<WorkerProcess> coordinators = new ArrayList<>();
        long wipedAfterMs = -1;
        long workerBackMs = -1;
        long coordinatorBackMs = -1;
        long termedJob = -1;
        long termedToken = -1;
        long foreignToken = -1;
        long foreignHolderToken = -1;
        try {
            for (int i = 0; i < 2; i++) {
                coordinators.add(WorkerProcess.start(tmp, "c" + i, "coordinator", "--store", url, "--locks", locks,
                        "--ttl-ms", Long.toString(TTL), "--period-ms", "200"));
            }
            long started = System.nanoTime();
            boolean wiped = false;
            long wipeT0 = 0;
            int committedAtWipe = 0;
            int wonAtWipe = 0;
            try (Store store = Store.open(url, 2)) {
                while (store.unfinished(null) > 0) {
                    assertTrue(System.nanoTime() - started < 200_000_000_000L, "jobs not finished within 200 s");
                    live.removeIf(w -> !w.alive());
                    while (live.size() < 3) {
                        WorkerProcess w = WorkerProcess.start(tmp, "w" + all.size(), workerArgs.toArray(String[]::new));
                        all.add(w);
                        live.add(w);
                    }
                    int done = store.countsByStatus().get(Store.DONE);
                    if (!wiped && done >= 8) {
                        committedAtWipe = committed(all);
                        wonAtWipe = won(coordinators);
                        etcd.kill(); // its data folder goes with it
                        etcd = LocalServer.etcd(port);
                        EtcdAuthRestartTest.enableAuth(port, OLD_PW);
                        wipeT0 = System.nanoTime();
                        wiped = true;
                        wipedAfterMs = (wipeT0 - started) / 1_000_000;
                    }
                    if (wiped && workerBackMs < 0 && committed(all) > committedAtWipe) {
                        workerBackMs = (System.nanoTime() - wipeT0) / 1_000_000;
                    }
                    if (wiped && coordinatorBackMs < 0 && won(coordinators) > wonAtWipe) {
                        coordinatorBackMs = (System.nanoTime() - wipeT0) / 1_000_000;
                    }
                    // A foreign token: while the long job runs under its live claim, commits carrying
                    // a fresh token and another job's claim token, with the holder's own name, are refused.
                    if (workerBackMs >= 0 && foreignToken < 0) {
                        Store.Job j = store.job(foreignJob);
                        String owner = claimOwner(store, foreignJob);
                        if (Store.RUNNING.equals(j.status()) && owner != null) {
                            foreignToken = store.claims().nextToken();
                            assertFalse(store.claims().commit(foreignJob, foreignToken, owner, "pass", "{\"by\":\"foreign\"}"),
                                    "a token never issued to the job's claim committed");
                            long other = otherClaimToken(store, foreignJob);
                            if (other > 0) {
                                assertFalse(store.claims().commit(foreignJob, other, owner, "pass", "{\"by\":\"other\"}"),
                                        "another job's claim token committed");
                            }
                            foreignHolderToken = j.claimToken();
                        }
                    }
                    // SIGTERM a worker that holds a job (not the long job's holder)
                    if (workerBackMs >= 0 && termedJob < 0) {
                        for (WorkerProcess w : live) {
                            long[] held = holding(w.output());
                            if (held != null && held[0] != foreignJob) {
                                w.signal("TERM");
                                assertEquals(143, w.waitFor(30_000), w.output());
                                live.remove(w);
                                termedJob = held[0];
                                termedToken = held[1];
                                break;
                            }
                        }
                    }
                    Thread.sleep(50);
                }
            }
            for (WorkerProcess c : coordinators) {
                assertTrue(c.alive(), "a coordinator exited:\n" + c.output());
            }
            for (WorkerProcess w : live) {
                w.waitFor(60_000);
            }
        } finally {
            for (WorkerProcess w : all) {
                w.close();
            }
            for (WorkerProcess c : coordinators) {
                c.close();
            }
            etcd.close();
        }
        assertTrue(workerBackMs >= 0 && workerBackMs < EtcdAuthRestartTest.RECOVERY_BOUND_MS,
                "the running workers committed again " + workerBackMs + " ms after the wipe");
        assertTrue(coordinatorBackMs >= 0 && coordinatorBackMs < EtcdAuthRestartTest.RECOVERY_BOUND_MS,
                "a running coordinator won again " + coordinatorBackMs + " ms after the wipe");
        assertTrue(termedJob > 0, "no worker was holding a job to stop with SIGTERM");
        assertTrue(foreignToken > 0, "the long job was never seen running to try a foreign commit");
        try (Store store = Store.open(url, 2); Connection c = store.db().connection(); Statement s = c.createStatement()) {
            exactlyOnce(s, jobs);
            // SIGTERM: the claim given back, no attempt charged
            try (ResultSet r = s.executeQuery("SELECT outcome FROM attempts WHERE job_id = " + termedJob
                    + " AND fencing_token = " + termedToken)) {
                assertTrue(r.next());
                assertEquals("released", r.getString(1), "the SIGTERMed worker's attempt");
            }
            assertEquals(count(s, "SELECT count(*) FROM attempts WHERE outcome <> 'released' AND job_id = " + termedJob),
                    count(s, "SELECT attempts FROM jobs WHERE job_id = " + termedJob), "attempts charged to job " + termedJob);
            // the foreign token wrote nothing; the live holder committed with its own token
            try (ResultSet r = s.executeQuery("SELECT fencing_token, result FROM results WHERE job_id = " + foreignJob)) {
                assertTrue(r.next());
                // The holder seen then, or a later claim of the job if the wipe cost that holder
                // its lease: either way a token issued to a claim of this job, committed as such.
                final long committed = r.getLong(1);
                assertTrue(committed >= foreignHolderToken, "the commit's token " + committed
                        + " is older than the holder's " + foreignHolderToken);
                assertNotEquals(foreignToken, committed);
                assertFalse(r.getString(2).contains("foreign") || r.getString(2).contains("other"));
                assertEquals(1, count(s, "SELECT count(*) FROM attempts WHERE outcome = 'committed' AND job_id = "
                        + foreignJob + " AND fencing_token = " + committed), "the committing claim's attempt");
            }
            assertEquals(0, count(s, "SELECT count(*) FROM attempts WHERE fencing_token = " + foreignToken));
        }
        // the other application's tables: untouched, and nothing of the farm's beside them
        try (Connection c = DriverManager.getConnection(jdbc, user, null); Statement s = c.createStatement()) {
            assertEquals(425, count(s, "SELECT sum(amount) FROM public.invoices"));
            assertEquals(3, count(s, "SELECT count(*) FROM public.invoices"));
            assertEquals(1, count(s, "SELECT count(*) FROM public.jobs WHERE title = 'plumber'"));
            Set<String> tables = new HashSet<>();
            try (ResultSet r = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            assertEquals(Set.of("invoices", "jobs"), tables, "the farm wrote into another application's schema");
            assertEquals(jobs, count(s, "SELECT count(*) FROM farm.results"));
        }
        System.out.printf("farm chaos, etcd with auth wiped after %d ms: running workers committed again after %d ms, a running "
                + "coordinator won again after %d ms; SIGTERM of a worker holding job %d: released, uncharged; foreign tokens "
                + "refused, the live holder committed with token %d; %d/%d committed exactly once in schema farm beside "
                + "another application's tables, untouched%n", wipedAfterMs, workerBackMs, coordinatorBackMs, termedJob,
                foreignHolderToken, jobs, jobs);
    }

    private static int committed(List<WorkerProcess> ps) {
        int n = 0;
        for (WorkerProcess p : ps) {
            n += EtcdAuthRestartTest.count(p.output(), "COMMITTED");
        }
        return n;
    }

    private static int won(List<WorkerProcess> ps) {
        int n = 0;
        for (WorkerProcess p : ps) {
            n += EtcdAuthRestartTest.count(p.output(), "won the lock");
        }
        return n;
    }

    /** The job and token this worker's output shows it holding (claimed, with no outcome yet), or null. */
    private static long[] holding(String out) {
        Matcher m = CLAIMED.matcher(out);
        long[] last = null;
        while (m.find()) {
            last = new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
        }
        if (last == null) {
            return null;
        }
        String tail = out.substring(out.lastIndexOf("job " + last[0] + " (noop) claimed with token " + last[1]));
        return tail.contains("job " + last[0] + " COMMITTED") || tail.contains("job " + last[0] + " STALE")
                || tail.contains("job " + last[0] + " cancelled") || tail.contains("job " + last[0] + " RELEASED")
                ? null : last;
    }

    private static String claimOwner(Store store, long job) throws Exception {
        try (Connection c = store.db().connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT claim_owner FROM jobs WHERE status = 'running' AND job_id = " + job)) {
            return r.next() ? r.getString(1) : null;
        }
    }

    /** The claim token of some other job (issued, but to another job's claim), or 0. */
    private static long otherClaimToken(Store store, long job) throws Exception {
        try (Connection c = store.db().connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT max(claim_token) FROM jobs WHERE job_id <> " + job)) {
            return r.next() ? r.getLong(1) : 0;
        }
    }
}
