package lockstep.nes.farm.lock;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock manager contract against a real redis-server on loopback. */
class RedisLockManagerTest extends LockManagerContract {
    @RegisterExtension
    static final LocalServer.PerClass SERVER = new LocalServer.PerClass(LocalServer::redis);

    @Override
    int serverPort() {
        return SERVER.port();
    }

    @Override
    LockManager open(int port) throws LockException {
        return LockManagers.open("redis://127.0.0.1:" + port + "?timeout=1000");
    }

    @Override
    Duration ttl() {
        return Duration.ofSeconds(2);
    }

    /** A key's token counter expires a while after its lock's last use, instead of never. */
    @Test
    void tokenCounterExpiresAfterItsLocksLastUse() throws Exception {
        try (LockManager m = open(serverPort()); redis.clients.jedis.Jedis j = new redis.clients.jedis.Jedis("127.0.0.1", serverPort())) {
            Lease l = m.tryAcquire("token-ttl", "A", ttl()).orElseThrow();
            String key = RedisLockManager.lockKey("token-ttl") + ":token";
            long left = j.pttl(key);
            org.junit.jupiter.api.Assertions.assertTrue(left > RedisLockManager.TOKEN_IDLE_MS - 60_000
                    && left <= RedisLockManager.TOKEN_IDLE_MS, "PTTL " + left);
            j.pexpire(key, 5_000);
            org.junit.jupiter.api.Assertions.assertTrue(m.renew(l).isPresent());
            org.junit.jupiter.api.Assertions.assertTrue(j.pttl(key) > 60_000, "a renewal moves the token's expiry");
            m.release(l);
        }
    }

    @Test
    void aDeadLinkFailsEachCallWithinTheUrlTimeout() throws Exception {
        assertDeadLinkFailsWithin(Duration.ofMillis(2500)); // timeout=1000 plus a loaded machine's slack
    }
}
