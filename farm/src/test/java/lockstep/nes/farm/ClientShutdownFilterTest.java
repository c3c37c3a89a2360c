package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

/** Only jetcd's warnings about the farm closing its own client are dropped. */
class ClientShutdownFilterTest {
    private static FilterReply decide(String logger, String message) {
        Logger l = new LoggerContext().getLogger(logger);
        return new ClientShutdownFilter().decide(new LoggingEvent(Logger.class.getName(), l, Level.WARN, message, null, null));
    }

    @Test
    void dropsOnlyTheClientsOwnShutdown() {
        assertEquals(FilterReply.DENY, decide("io.etcd.jetcd.impl.KVImpl",
                "retry failure (attempt: 1, error: UNAVAILABLE: Channel shutdownNow invoked)"));
        assertEquals(FilterReply.NEUTRAL, decide("io.etcd.jetcd.impl.KVImpl",
                "retry failure (attempt: 1, error: UNAVAILABLE: io exception)"));
        assertEquals(FilterReply.NEUTRAL, decide("com.zaxxer.hikari.pool.HikariPool", "Channel shutdownNow invoked"));
    }
}
