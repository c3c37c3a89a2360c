package lockstep.nes.farm.lock;

import java.net.URI;
import java.time.Duration;
import lockstep.nes.farm.PgServer;
import org.junit.jupiter.api.BeforeAll;

/**
 * The lock manager contract against a real PostgreSQL on loopback (the farm's {@link PgServer}:
 * LOCKSTEP_PG_URL, or a throwaway cluster), on a fresh database per class.
 */
class PostgresLockManagerTest extends LockManagerContract {
    private static String url;
    private static int port;

    @BeforeAll
    static void database() throws LockException {
        url = PgServer.newDatabase();
        port = URI.create(url).getPort();
        LockManagers.open(url).close(); // migrate once, before the tests open managers side by side
    }

    @Override
    int serverPort() {
        return port;
    }

    @Override
    LockManager open(int port) throws LockException {
        URI u = URI.create(url);
        return LockManagers.open(u.getScheme() + "://" + u.getRawUserInfo() + "@127.0.0.1:" + port + u.getRawPath());
    }

    @Override
    Duration ttl() {
        return Duration.ofSeconds(2);
    }
}
