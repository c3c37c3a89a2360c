package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisClientConfig;

/** The TLS and authentication options of a Redis URL reach the Jedis client. */
class RedisOptionsTest {

    @Test
    void tlsUserAndPasswordReachTheClientConfig() {
        JedisClientConfig c = RedisLockManager.clientConfig(700, 2, true, "farm", "s3cret");
        assertTrue(c.isSsl());
        assertEquals("farm", c.getUser());
        assertEquals("s3cret", c.getPassword());
        assertEquals(2, c.getDatabase());
        assertEquals(700, c.getSocketTimeoutMillis());
    }

    @Test
    void plainUrlHasNoTlsAndNoCredentials() {
        JedisClientConfig c = RedisLockManager.clientConfig(1000, 0, false, null, null);
        assertFalse(c.isSsl());
        assertNull(c.getUser());
        assertNull(c.getPassword());
    }

    @Test
    void aPasswordWithoutAUserIsTheDefaultUsers() {
        JedisClientConfig c = RedisLockManager.clientConfig(1000, 0, false, null, "pw");
        assertNull(c.getUser());
        assertEquals("pw", c.getPassword());
    }

    @Test
    void redissIsARedisUrlAndMessagesMaskThePassword() throws Exception {
        try (LockManager m = LockManagers.open("rediss://:pw@127.0.0.1:6380")) {
            assertEquals("redis", m.kind());
        }
        LockException e = assertThrows(LockException.class, () -> LockManagers.open("rediss://u:pw@127.0.0.1:6380/x"));
        assertTrue(e.getMessage().contains("database must be a number"), e.getMessage());
        assertFalse(e.getMessage().contains("pw@"), e.getMessage());
    }
}
