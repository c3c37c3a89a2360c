package lockstep.nes.desktop.netplay;

import java.net.InetSocketAddress;
import lockstep.nes.netplay.NetplayPeer;

/**
 * How the window takes part in a netplay session: as the host on a UDP port with its delay and
 * window, or as the joiner of a host's address (the host's delay and window hold for both).
 *
 * @param delay frames of input delay, or {@link NetplayPeer#AUTO_DELAY}
 */
public record NetplayLaunch(boolean host, int port, String hostName, int delay, int window) {

    /** The netplay commands' defaults. */
    public static final int DEFAULT_PORT = 7845;
    public static final int DEFAULT_WINDOW = 8;

    /**
     * A host on {@code port} (0-65535; 0: any free port), {@code delay} "auto" or 0-30 frames,
     * {@code window} 1-30 frames; a bad value throws {@link IllegalArgumentException} with one line
     * naming the option.
     */
    public static NetplayLaunch host(int port, String delay, int window) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port " + port + " is out of range (0-65535)");
        }
        if (window < 1 || window > 30) {
            throw new IllegalArgumentException("--window " + window + " is out of range (1-30)");
        }
        return new NetplayLaunch(true, port, null, parseDelay(delay), window);
    }

    /** A joiner of {@code hostPort}, "HOST:PORT" (an IPv6 address in brackets: "[::1]:7845"). */
    public static NetplayLaunch join(String hostPort) {
        String s = hostPort == null ? "" : hostPort.strip();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("--netplay-join '" + hostPort + "': expected HOST:PORT, e.g. 192.168.1.20:7845");
        }
        String name = s.substring(0, colon);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--netplay-join '" + hostPort + "': the port is not a number");
        }
        if (port < 1 || port > 65535 || name.isEmpty()) {
            throw new IllegalArgumentException("--netplay-join '" + hostPort + "': the port is out of range (1-65535)");
        }
        return new NetplayLaunch(false, port, name, NetplayPeer.AUTO_DELAY, DEFAULT_WINDOW);
    }

    /**
     * The {@code lockstep run} flags: {@code --netplay-host} with its optional {@code --port},
     * {@code --delay}, {@code --window}, or {@code --netplay-join HOST:PORT}; null when neither is
     * given. Both, or a host's option without {@code --netplay-host}, throw with one line.
     */
    public static NetplayLaunch fromFlags(boolean host, String join, Integer port, String delay, Integer window) {
        if (host && join != null) {
            throw new IllegalArgumentException("--netplay-host and --netplay-join: give one (a window hosts or joins)");
        }
        if (!host && (port != null || delay != null || window != null)) {
            String which = port != null ? "--port" : delay != null ? "--delay" : "--window";
            throw new IllegalArgumentException(which + " is the host's: give it with --netplay-host"
                    + (join != null ? " (a joiner plays with the host's)" : ""));
        }
        if (host) {
            return host(port != null ? port : DEFAULT_PORT, delay, window != null ? window : DEFAULT_WINDOW);
        }
        return join != null ? join(join) : null;
    }

    /** "auto" ({@link NetplayPeer#AUTO_DELAY}) or 0-30 frames. */
    public static int parseDelay(String delay) {
        if (delay == null || delay.equalsIgnoreCase("auto")) {
            return NetplayPeer.AUTO_DELAY;
        }
        int d;
        try {
            d = Integer.parseInt(delay.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--delay '" + delay + "': expected 'auto' or a number of frames (0-30)");
        }
        if (d < 0 || d > 30) {
            throw new IllegalArgumentException("--delay " + d + " is out of range (0-30)");
        }
        return d;
    }

    /** The host's address, for a joiner (resolved now). */
    public InetSocketAddress address() {
        return new InetSocketAddress(hostName, port);
    }
}
