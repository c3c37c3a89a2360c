package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.nes.farm.lock.LocalServer;
import lockstep.nes.farm.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd with authentication, wiped and started again empty with authentication enabled again
 * (the same user and password): a worker and a coordinator that were running before go on as a
 * freshly started process would, within seconds: the worker claims and commits a job submitted
 * after the restart, and the coordinator wins the election again.
 */
@Timeout(180)
class EtcdAuthRestartTest {
    static final String PASSWORD = "etcd-Pw/1";
    /**
     * From the moment etcd answers again with authentication on: a fresh process needs a couple
     * of seconds to start and ask etcd; the old client's dead session (its token, its leases)
     * must cost no more than a few seconds beyond the TTL of 2 s.
     */
    static final long RECOVERY_BOUND_MS = 8_000;

    @TempDir
    Path tmp;

    /** Adds user root with {@code password} and the root role, and enables authentication. */
    static void enableAuth(int port, String password) throws Exception {
        try (Client admin = Client.builder().endpoints("http://127.0.0.1:" + port).build()) {
            ByteSequence root = ByteSequence.from("root", StandardCharsets.UTF_8);
            admin.getAuthClient().userAdd(root, ByteSequence.from(password, StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
            admin.getAuthClient().userGrantRole(root, root).get(10, TimeUnit.SECONDS);
            admin.getAuthClient().authEnable().get(10, TimeUnit.SECONDS);
        }
    }

    static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * Waits until each {@code regexes[i]} matches more than {@code before[i]} times in
     * {@code ps[i]}'s output; the ms each took from {@code t0}.
     */
    static long[] awaitMore(WorkerProcess[] ps, String[] regexes, int[] before, long t0, long timeoutMs)
            throws InterruptedException {
        long[] took = new long[ps.length];
        java.util.Arrays.fill(took, -1);
        int left = ps.length;
        while (left > 0) {
            long waited = (System.nanoTime() - t0) / 1_000_000;
            for (int i = 0; i < ps.length; i++) {
                if (took[i] < 0 && count(ps[i].output(), regexes[i]) > before[i]) {
                    took[i] = waited;
                    left--;
                } else if (took[i] < 0 && waited > timeoutMs) {
                    throw new AssertionError("no new /" + regexes[i] + "/ within " + timeoutMs + " ms:\n" + ps[i].output());
                }
            }
            Thread.sleep(20);
        }
        return took;
    }

    @Test
    void runningWorkerAndCoordinatorRecoverFromAWipedEtcdWithAuth() throws Exception {
        int port = LocalServer.freePort();
        String store = tmp.resolve("farm.db").toString();
        try (Store s = Store.open(store, 2, lockstep.nes.farm.store.SchemaAccess.CREATE)) {
            s.submit("noop", List.of("{\"ms\":50}", "{\"ms\":50}"));
        }
        String locks = "etcd://root:" + PASSWORD.replace("/", "%2F") + "@127.0.0.1:" + port + "?timeout=500";
        LocalServer etcd = LocalServer.etcd(port);
        try {
            enableAuth(port, PASSWORD);
            try (WorkerProcess w = WorkerProcess.start(tmp, "worker", "worker", "--store", store, "--locks", locks,
                    "--ttl-ms", "2000", "--idle-poll-ms", "50");
                 WorkerProcess c = WorkerProcess.start(tmp, "coordinator", "coordinator", "--store", store, "--locks", locks,
                    "--ttl-ms", "2000", "--period-ms", "200")) {
                WorkerProcess[] both = {w, c};
                String[] lines = {"COMMITTED", "won the lock"};
                awaitMore(both, lines, new int[] {1, 0}, System.nanoTime(), 60_000);
                int committed = count(w.output(), "COMMITTED");
                int won = count(c.output(), "won the lock");

                etcd.kill(); // its data folder goes with it
                etcd = LocalServer.etcd(port);
                enableAuth(port, PASSWORD);
                long t0 = System.nanoTime();
                try (Store s = Store.open(store, 2)) {
                    s.submit("noop", List.of("{\"ms\":50}"));
                }
                long[] took = awaitMore(both, lines, new int[] {committed, won}, t0, 60_000);
                long worker = took[0];
                long coordinator = took[1];
                System.out.printf("etcd wiped and restarted with auth: the running worker committed after %d ms, "
                        + "the running coordinator won the election after %d ms%n", worker, coordinator);
                assertTrue(worker < RECOVERY_BOUND_MS, "worker recovered after " + worker + " ms:\n" + w.output());
                assertTrue(coordinator < RECOVERY_BOUND_MS, "coordinator recovered after " + coordinator + " ms:\n" + c.output());
                assertTrue(w.alive() && c.alive());
            }
        } finally {
            etcd.close();
        }
    }
}
