package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ClientBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS and authentication options of an etcd URL reach the jetcd client builder. */
class EtcdOptionsTest {

    private static ClientBuilder builder(String url) throws LockException {
        return EtcdLockManager.builder(EtcdLockManager.parse(url), url);
    }

    @Test
    void plainUrlHasNoTlsAndNoUser() throws LockException {
        ClientBuilder b = builder("etcd://127.0.0.1:2379?timeout=700");
        assertNull(b.sslContext());
        assertNull(b.user());
        assertTrue(b.target().contains("127.0.0.1:2379"), b.target());
        assertEquals(700, EtcdLockManager.parse("etcd://127.0.0.1:2379?timeout=700").timeoutMillis());
    }

    @Test
    void userAndPasswordReachTheClient() throws LockException {
        ClientBuilder b = builder("etcd://farm:s3cret@10.0.0.5:2379");
        assertEquals("farm", b.user().toString(StandardCharsets.UTF_8));
        assertEquals("s3cret", b.password().toString(StandardCharsets.UTF_8));
    }

    @Test
    void etcdsUsesTlsOverHttps() throws LockException {
        EtcdLockManager.Options o = EtcdLockManager.parse("etcds://db.example:2379");
        assertEquals("https://db.example:2379", o.endpoint());
        assertNotNull(builder("etcds://db.example:2379").sslContext());
    }

    @Test
    void aCaFileReachesTheClientsTrustManager(@TempDir Path dir) throws Exception {
        Path ca = dir.resolve("ca.pem");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=test-ca", "-keyout", dir.resolve("ca.key").toString(), "-out", ca.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("openssl.log").toFile()).start();
        assertEquals(0, p.waitFor(), () -> "openssl failed");
        String url = "etcds://db.example:2379?cacert=" + ca;
        assertEquals(ca, EtcdLockManager.parse(url).caFile());
        assertNotNull(builder(url).sslContext());

        Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate");
        LockException e = assertThrows(LockException.class, () -> builder("etcds://db.example:2379?cacert=" + junk));
        assertTrue(e.getMessage().contains("is not a PEM certificate"), e.getMessage());
    }

    @Test
    void badOptionsAreOneClearLineWithThePasswordMasked() {
        LockException e = assertThrows(LockException.class,
                () -> EtcdLockManager.parse("etcd://u:pw@h:2379?cacert=/etc/hostname"));
        assertTrue(e.getMessage().contains("cacert needs etcds://"), e.getMessage());
        assertFalse(e.getMessage().contains("pw@"), e.getMessage());
        e = assertThrows(LockException.class, () -> EtcdLockManager.parse("etcds://h:2379?cacert=/no/such/ca.pem"));
        assertTrue(e.getMessage().contains("cannot read CA file /no/such/ca.pem"), e.getMessage());
        e = assertThrows(LockException.class, () -> EtcdLockManager.parse("etcd://justuser@h:2379"));
        assertTrue(e.getMessage().contains("expected user:password@"), e.getMessage());
    }
}
