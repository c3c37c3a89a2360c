package lockstep.nes.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** gRPC's and Netty's java.util.logging records come out through Logback, in its format. */
class JulBridgeTest {

    @Test
    void aJulWarningIsOneLogbackLineOnStderr() {
        LoggerFactory.getLogger(JulBridgeTest.class); // Logback configured (farm's logback.xml)
        JulBridge.install();
        JulBridge.install(); // a second farm command in the same process adds no second handler
        assertEquals(1, Logger.getLogger("").getHandlers().length);

        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            Logger grpc = Logger.getLogger("io.grpc.internal.ManagedChannelImpl");
            grpc.warning("channel for etcd shut down");
            grpc.fine("a debug record below Logback's level");
            grpc.log(Level.INFO, "an info record below the root's WARN");
            grpc.log(Level.WARNING, "connection lost", new java.io.IOException("reset by peer"));
        } finally {
            System.setErr(saved);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        assertTrue(out.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S* WARN  "
                + "\\S*ManagedChannelImpl: channel for etcd shut down\\R"
                + "\\S+ WARN  \\S*ManagedChannelImpl: connection lost \\[java.io.IOException: reset by peer[^\\n]*\\]\\R"), out);
        assertFalse(out.contains("below"), out);
    }
}
