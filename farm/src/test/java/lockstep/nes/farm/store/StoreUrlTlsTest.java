package lockstep.nes.farm.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** PostgreSQL's TLS options in a {@code --store} URL reach the JDBC driver. */
class StoreUrlTlsTest {

    @Test
    void sslmodeAndRootCertReachTheDriver() throws Exception {
        StoreUrl u = StoreUrl.parse("postgresql://farm:s3cret@db.example:5433/farm?sslmode=verify-full&sslrootcert=/etc/farm/ca.pem");
        Properties p = org.postgresql.Driver.parseURL(u.jdbcUrl(), new Properties());
        assertNotNull(p, u.jdbcUrl());
        assertEquals("verify-full", p.getProperty("sslmode"));
        assertEquals("/etc/farm/ca.pem", p.getProperty("sslrootcert"));
        assertEquals("farm", u.user());
        assertEquals("s3cret", u.password());
        assertFalse(u.display().contains("s3cret"), u.display());
    }
}
