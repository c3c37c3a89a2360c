package lockstep.nes.desktop.netplay;

import java.util.Locale;

/** The on-screen line of a netplay session's figures. */
public final class NetplayStatus {
    private NetplayStatus() {
    }

    /**
     * "netplay P1  ping 48 ms  delay 2  rollback 3 (12 so far)": the player this window is, the
     * smoothed round trip ("ping -" before the first sample), the input delay in frames, and the
     * latest rollback's depth in frames with the count so far.
     */
    public static String line(boolean host, double rttMillis, int delay, int lastRollbackDepth, long rollbacks) {
        String ping = rttMillis < 0 ? "-" : String.format(Locale.ROOT, "%.0f ms", rttMillis);
        return String.format(Locale.ROOT, "netplay P%d  ping %s  delay %d  rollback %d (%d so far)",
                host ? 1 : 2, ping, delay, lastRollbackDepth, rollbacks);
    }

    /** The line shown while the handshake is under way. */
    public static String waiting(NetplayLaunch launch, int listeningPort) {
        return launch.host()
                ? "netplay: waiting for a joiner on UDP port " + listeningPort
                : "netplay: joining " + launch.hostName() + ":" + launch.port();
    }
}
