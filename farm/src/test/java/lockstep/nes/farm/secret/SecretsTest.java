package lockstep.nes.farm.secret;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lockstep.nes.farm.lock.LockException;
import lockstep.nes.farm.lock.LockManager;
import lockstep.nes.farm.lock.LockManagers;
import lockstep.nes.farm.store.StoreUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No message shows a password, credentials decode as URLs do, and a URL can come from a file or the environment. */
class SecretsTest {
    @TempDir
    Path tmp;

    private static void hides(Exception e, String secret, String expected) {
        String m = e.getMessage();
        assertFalse(m.contains(secret), "the password shows: " + m);
        assertTrue(m.contains(expected), m);
    }

    @Test
    void storeUrlErrorsNeverShowThePassword() {
        hides(assertThrows(StoreUrl.BadUrlException.class, () -> StoreUrl.parse("mysql://root:Hunter2x@db:3306/farm")),
                "Hunter2x", "unsupported store URL 'mysql://root:***@db:3306/farm'");
        // a bad % escape in the password, and a URL the parser rejects after the credentials
        hides(assertThrows(StoreUrl.BadUrlException.class, () -> StoreUrl.parse("postgresql://farm:Hu%zznter2x@db/farm")),
                "nter2x", "two hex digits");
        hides(assertThrows(StoreUrl.BadUrlException.class, () -> StoreUrl.parse("postgresql://farm:Hunter2x@db:5432/fa rm")),
                "Hunter2x", "bad PostgreSQL URL 'postgresql://farm:***@db:5432/fa rm'");
        hides(assertThrows(StoreUrl.BadUrlException.class, () -> StoreUrl.parse("postgresql://farm:Hun/ter2x@/farm")),
                "ter2x", "no host");
    }

    @Test
    void lockUrlErrorsNeverShowThePasswordAndNameTheirScheme() {
        hides(assertThrows(LockException.class, () -> LockManagers.open("redis://u:Hunter2x@cache:63 79")),
                "Hunter2x", "bad Redis URL 'redis://u:***@cache:63 79'");
        hides(assertThrows(LockException.class, () -> LockManagers.open("etcd://u:Hunter2x@etcd:23 79")),
                "Hunter2x", "bad etcd URL 'etcd://u:***@etcd:23 79'");
        hides(assertThrows(LockException.class, () -> LockManagers.open("redis://:Hun/ter2x@cache:6379/zero")),
                "ter2x", "database must be a number");
        hides(assertThrows(LockException.class, () -> LockManagers.open("zookeeper://u:Hunter2x@zk:1")),
                "Hunter2x", "unknown lock manager URL");
    }

    @Test
    void aPasswordMayHoldSlashesPlusSignsAndEscapes() throws Exception {
        UrlCredentials c = UrlCredentials.split("redis://:pa/ss@word@cache:6379/2?timeout=300");
        assertNull(c.user());
        assertEquals("pa/ss@word", c.password());
        assertEquals("redis://cache:6379/2?timeout=300", c.rest());
        assertEquals("redis://:***@cache:6379/2?timeout=300", c.display());
        StoreUrl pg = StoreUrl.parse("postgresql://farm:a+b%2Fc%25@db:5432/farm");
        assertEquals("farm", pg.user());
        assertEquals("a+b/c%", pg.password(), "+ is a plus sign in a URL, not a space");
        assertEquals("jdbc:postgresql://db:5432/farm", pg.jdbcUrl());
        assertFalse(pg.display().contains("a+b"), pg.display());
        assertEquals("postgresql://farm:***@db/farm?sslmode=require&password=***",
                UrlCredentials.mask("postgresql://farm:x@db/farm?sslmode=require&password=Hunter2x"));
        try (LockManager m = LockManagers.open("redis://:pa/ss@127.0.0.1:1?timeout=200")) {
            assertEquals("redis", m.kind());
        }
    }

    @Test
    void aRedisUserWithoutAPasswordIsRefused() {
        LockException e = assertThrows(LockException.class, () -> LockManagers.open("redis://farm@cache:6379"));
        assertTrue(e.getMessage().contains("a user without a password"), e.getMessage());
    }

    @Test
    void aUrlComesFromTheOptionAFileOrTheEnvironment() throws Exception {
        Path file = Files.writeString(tmp.resolve("store-url"), "postgresql://farm:pw@db/farm\n");
        Map<String, String> env = Map.of("LOCKSTEP_STORE", "sqlite:env.db");
        assertEquals("given.db", UrlSource.resolve("--store", "given.db", null, "LOCKSTEP_STORE", env));
        assertEquals("postgresql://farm:pw@db/farm", UrlSource.resolve("--store", null, file, "LOCKSTEP_STORE", env));
        assertEquals("sqlite:env.db", UrlSource.resolve("--store", null, null, "LOCKSTEP_STORE", env));
        assertNull(UrlSource.resolve("--store", null, null, "LOCKSTEP_STORE", Map.of()));
        String both = assertThrows(UrlSource.MissingUrlException.class,
                () -> UrlSource.resolve("--store", "a.db", file, "LOCKSTEP_STORE", env)).getMessage();
        assertTrue(both.contains("--store and --store-file"), both);
        Path empty = Files.writeString(tmp.resolve("empty"), "\n");
        String m = assertThrows(UrlSource.MissingUrlException.class,
                () -> UrlSource.resolve("--store", null, empty, "LOCKSTEP_STORE", env)).getMessage();
        assertTrue(m.contains("empty") && m.contains(empty.toString()), m);
        m = assertThrows(UrlSource.MissingUrlException.class,
                () -> UrlSource.resolve("--locks", null, tmp.resolve("nope"), "LOCKSTEP_LOCKS", env)).getMessage();
        assertTrue(m.contains("no such file") && m.contains("--locks-file"), m);
        m = assertThrows(UrlSource.MissingUrlException.class,
                () -> UrlSource.resolve("--store", null, null, "LOCKSTEP_STORE", Map.of("LOCKSTEP_STORE", " "))).getMessage();
        assertTrue(m.contains("LOCKSTEP_STORE is empty"), m);
    }
}
