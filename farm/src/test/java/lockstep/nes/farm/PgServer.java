package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL on loopback for the farm's tests: the server named by env LOCKSTEP_PG_URL
 * (a {@code postgresql://user:pass@host:port/db} URL whose user may create databases), else a
 * throwaway cluster (initdb + pg_ctl on a free port in a temp folder, run as user postgres
 * when this JVM is root), stopped when the JVM exits. Each caller gets a fresh database.
 * Without PostgreSQL a test fails when CI=true and is skipped otherwise.
 */
public final class PgServer {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static String base;     // postgresql://user@host:port
    private static String problem;

    private PgServer() {
    }

    /** The role of the throwaway cluster that must give its password (scram-sha-256). */
    static final String PASSWORD_ROLE = "farm_pw";

    /**
     * A fresh database owned by {@link #PASSWORD_ROLE}, which logs in with {@code password}
     * over TCP: its URL with that user and password. Skipped with LOCKSTEP_PG_URL (an outside
     * server's authentication rules are not this class's).
     */
    public static synchronized String newPasswordDatabase(String password) {
        String url = newDatabase();
        assumeTrue(restart != null, "LOCKSTEP_PG_URL: the password rules are the outside server's");
        String name = url.substring(url.lastIndexOf('/') + 1);
        try (Connection c = DriverManager.getConnection(jdbc(base + "/postgres"), user(), password());
             Statement s = c.createStatement()) {
            s.execute("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + PASSWORD_ROLE
                    + "') THEN CREATE ROLE " + PASSWORD_ROLE + " LOGIN; END IF; END$$");
            s.execute("ALTER ROLE " + PASSWORD_ROLE + " PASSWORD '" + password.replace("'", "''") + "'");
            s.execute("ALTER DATABASE " + name + " OWNER TO " + PASSWORD_ROLE);
        } catch (SQLException e) {
            fail("cannot set up role " + PASSWORD_ROLE + ": " + e.getMessage());
        }
        return "postgresql://" + PASSWORD_ROLE + ":" + password + "@" + base.substring(base.indexOf('@') + 1) + "/" + name;
    }

    /** A fresh, empty database's URL. */
    public static synchronized String newDatabase() {
        if (base == null && problem == null) {
            try {
                start();
            } catch (IOException | InterruptedException | RuntimeException e) {
                problem = "cannot start PostgreSQL: " + e.getMessage();
            }
        }
        if (problem != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        String name = "farm_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        String admin = base + "/postgres";
        try (Connection c = DriverManager.getConnection(jdbc(admin), user(), password());
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            fail("cannot create database " + name + " on " + base + ": " + e.getMessage());
        }
        return base + "/" + name;
    }

    private static String jdbc(String url) {
        String rest = url.substring(url.indexOf("://") + 3);
        return "jdbc:postgresql://" + rest.substring(rest.indexOf('@') + 1);
    }

    private static String user() {
        String rest = base.substring(base.indexOf("://") + 3);
        String info = rest.substring(0, rest.indexOf('@'));
        int c = info.indexOf(':');
        return c < 0 ? info : info.substring(0, c);
    }

    private static String password() {
        String rest = base.substring(base.indexOf("://") + 3);
        String info = rest.substring(0, rest.indexOf('@'));
        int c = info.indexOf(':');
        return c < 0 ? null : info.substring(c + 1);
    }

    private static void start() throws IOException, InterruptedException {
        String env = System.getenv("LOCKSTEP_PG_URL");
        if (env != null && !env.isBlank()) {
            String u = env.strip();
            int slash = u.indexOf('/', u.indexOf("://") + 3);
            base = slash < 0 ? u : u.substring(0, slash);
            if (!base.contains("@")) {
                problem = "LOCKSTEP_PG_URL must name a user (postgresql://user@host:port/db)";
            }
            return;
        }
        Path bin = findBin();
        if (bin == null) {
            problem = "PostgreSQL not found (no /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql, or set LOCKSTEP_PG_URL)";
            return;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("lockstep-pg-");
        List<String> prefix = new ArrayList<>();
        if (root) {
            run(List.of("chown", "postgres:postgres", dir.toString()), 30);
            prefix.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        Path data = dir.resolve("data");
        List<String> initdb = new ArrayList<>(prefix);
        initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "--auth=trust",
                "-E", "UTF8", "--no-sync"));
        run(initdb, 120);
        // One role must give its password (the first matching line of pg_hba.conf decides), for
        // the tests of wrong credentials; every other role is trusted.
        Path hba = data.resolve("pg_hba.conf");
        Files.writeString(hba, "host all " + PASSWORD_ROLE + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // fsync and full-page writes off: a throwaway cluster on a shared test machine need not
        // survive a power cut. synchronous_commit stays on (the server default a real store runs
        // with), so a commit still waits for its WAL write and the throughput figure is not
        // bought with the durability the farm relies on.
        List<String> startCmd = new ArrayList<>(prefix);
        startCmd.addAll(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off "
                        + "-c synchronous_commit=on -c full_page_writes=off -c max_connections=200", "start"));
        run(startCmd, 90);
        List<String> stop = new ArrayList<>(prefix);
        stop.addAll(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(stop, 30);
            } catch (IOException | InterruptedException | RuntimeException ignored) {
                // best effort
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // best effort
            }
        }));
        base = "postgresql://postgres@127.0.0.1:" + port;
        restart = new ArrayList<>(startCmd);
        restart.set(restart.size() - 1, "restart");
        restart.add(restart.size() - 1, "-m");
        restart.add(restart.size() - 1, "immediate");
    }

    /** The command that restarts the throwaway cluster (null with LOCKSTEP_PG_URL). */
    private static List<String> restart;

    /**
     * Restarts the throwaway cluster at once (as after a crash: {@code pg_ctl restart -m
     * immediate}); false when the server is not this class's own (LOCKSTEP_PG_URL).
     */
    public static synchronized boolean restart() throws IOException, InterruptedException {
        if (restart == null) {
            return false;
        }
        run(restart, 90);
        return true;
    }

    private static Path findBin() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(p -> p.getParent().getFileName().toString())).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static void run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " timed out");
        }
        if (p.exitValue() != 0) {
            throw new IOException(cmd.get(prefixLength(cmd)) + " exited " + p.exitValue() + ": "
                    + new String(out, StandardCharsets.UTF_8).strip().replace('\n', ' '));
        }
    }

    private static int prefixLength(List<String> cmd) {
        return cmd.get(0).equals("runuser") ? 4 : 0;
    }
}
