package lockstep.nes.farm;

import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Sends java.util.logging records (gRPC and Netty under jetcd log that way) to SLF4J, so they
 * reach Logback's format and streams like every other library's lines instead of JUL's own
 * two-line console format. Installed once, when a farm command starts; logback.xml's
 * {@code LevelChangePropagator} keeps JUL's levels in step with Logback's, so records below
 * Logback's level are dropped by JUL before they are built.
 */
public final class JulBridge {
    private JulBridge() {
    }

    /** Replaces JUL's root console handler by the SLF4J bridge (once per process). */
    public static synchronized void install() {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
    }
}
