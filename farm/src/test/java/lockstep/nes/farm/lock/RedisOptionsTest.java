package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocketFactory;
import lockstep.nes.core.TestTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.JedisClientConfig;

/** The TLS and authentication options of a Redis URL reach the Jedis client, and a CA file lets it into a TLS redis-server. */
class RedisOptionsTest {

    @Test
    void tlsUserAndPasswordReachTheClientConfig() {
        JedisClientConfig c = RedisLockManager.clientConfig(700, 2, true, null, "farm", "s3cret");
        assertTrue(c.isSsl());
        assertEquals("farm", c.getUser());
        assertEquals("s3cret", c.getPassword());
        assertEquals(2, c.getDatabase());
        assertEquals(700, c.getSocketTimeoutMillis());
        assertNull(c.getSslSocketFactory(), "without cacert: the JVM's trusted CAs");
        assertEquals("HTTPS", c.getSslParameters().getEndpointIdentificationAlgorithm(), "the host name is checked");
    }

    /** A throwaway CA and a certificate it signs for 127.0.0.1, made with openssl in {@code dir}. */
    static void makeCertificates(Path dir) throws Exception {
        TestTools.require("openssl", "apt-get install openssl");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=farm-test-ca",
                "-keyout", "ca.key", "-out", "ca.pem");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=other-ca",
                "-keyout", "other.key", "-out", "other.pem");
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
                "-out", "server.csr");
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\n");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "server.ext", "-out", "server.pem");
    }

    private static void openssl(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        assertEquals(0, p.waitFor(), () -> "openssl " + args[0] + " failed");
    }

    @Test
    void aCaFileBuildsTheSocketFactoryAndBadOnesAreOneClearLine(@TempDir Path dir) throws Exception {
        makeCertificates(dir);
        Path ca = dir.resolve("ca.pem");
        SSLSocketFactory f = CaCertificates.socketFactory(ca, "x");
        assertNotNull(f);
        assertNotNull(RedisLockManager.clientConfig(1000, 0, true, f, null, null).getSslSocketFactory());
        try (LockManager m = LockManagers.open("rediss://127.0.0.1:6380?cacert=" + ca)) {
            assertEquals("redis", m.kind());
        }

        Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate");
        LockException e = assertThrows(LockException.class, () -> LockManagers.open("rediss://:pw@h:6380?cacert=" + junk));
        assertEquals("bad Redis URL 'rediss://:***@h:6380?cacert=" + junk + "': CA file " + junk
                + " is not a PEM certificate", e.getMessage());
        e = assertThrows(LockException.class, () -> LockManagers.open("rediss://h:6380?cacert=/no/such/ca.pem"));
        assertTrue(e.getMessage().endsWith(": cannot read CA file /no/such/ca.pem"), e.getMessage());
        e = assertThrows(LockException.class, () -> LockManagers.open("redis://h:6379?cacert=" + ca));
        assertTrue(e.getMessage().endsWith(": cacert needs rediss:// (TLS)"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    /** A real redis-server over TLS: its CA's file lets the lock manager in; another CA's does not. */
    @Test
    void aTlsRedisServerIsTrustedThroughItsCaFileOnly(@TempDir Path dir) throws Exception {
        makeCertificates(dir);
        int port = LocalServer.freePort();
        try (LocalServer server = LocalServer.redisTls(port, dir.resolve("server.pem"), dir.resolve("server.key"),
                dir.resolve("ca.pem"))) {
            try (LockManager m = LockManagers.open("rediss://127.0.0.1:" + port + "?timeout=5000&cacert=" + dir.resolve("ca.pem"))) {
                Lease l = m.tryAcquire("tls-job", "a", Duration.ofSeconds(5)).orElseThrow();
                assertTrue(m.renew(l).isPresent());
                m.release(l);
            }
            try (LockManager m = LockManagers.open("rediss://127.0.0.1:" + port + "?timeout=5000&cacert="
                    + dir.resolve("other.pem"))) {
                LockException e = assertThrows(LockException.class, () -> m.tryAcquire("tls-job", "a", Duration.ofSeconds(5)));
                assertTrue(e.getMessage().startsWith("Redis rediss://127.0.0.1:" + port), e.getMessage());
            }
        }
    }

    @Test
    void plainUrlHasNoTlsAndNoCredentials() {
        JedisClientConfig c = RedisLockManager.clientConfig(1000, 0, false, null, null, null);
        assertFalse(c.isSsl());
        assertNull(c.getUser());
        assertNull(c.getPassword());
    }

    @Test
    void aPasswordWithoutAUserIsTheDefaultUsers() {
        JedisClientConfig c = RedisLockManager.clientConfig(1000, 0, false, null, null, "pw");
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
