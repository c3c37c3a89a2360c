package lockstep.nes.farm.lock;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP proxy a test controls, to break the link between a client and its server:
 * <ul>
 *   <li>{@link #cut()} resets every open connection and resets new ones as soon as they are
 *       accepted (the client sees errors at once);</li>
 *   <li>{@link #blackhole()} keeps connections open but silently drops everything, and accepts
 *       new ones without ever connecting them (the client only notices through its timeouts —
 *       the harder case, like a pulled cable or a firewall dropping packets);</li>
 *   <li>{@link #restore()} forwards again; connections that lost bytes while black-holed are
 *       closed, since their streams are corrupt.</li>
 * </ul>
 * Clients connect to {@code 127.0.0.1:}{@link #port()}.
 */
public final class TcpProxy implements AutoCloseable {
    private enum Mode { FORWARD, CUT, BLACKHOLE }

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Conn> conns = new ArrayList<>();
    private volatile Mode mode = Mode.FORWARD;
    private volatile boolean closed;

    private final class Conn {
        final Socket client;
        volatile Socket upstream;
        volatile boolean tainted;

        Conn(Socket client) {
            this.client = client;
        }

        void pump(InputStream in, OutputStream out) {
            byte[] buf = new byte[16384];
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (mode != Mode.FORWARD || tainted) {
                        tainted = true; // dropped on the floor
                        continue;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side went away or we closed it
            }
            if (mode == Mode.BLACKHOLE) {
                closeQuietly(client, false); // the server must not hear of it; restore() ends the rest
            } else {
                close(false);
            }
        }

        void close(boolean reset) {
            closeQuietly(client, reset);
            closeQuietly(upstream, reset);
            synchronized (conns) {
                conns.remove(this);
            }
        }
    }

    private TcpProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort() + "->" + port);
        this.acceptor.setDaemon(true);
    }

    /** Starts a proxy on a free loopback port forwarding to {@code host:port}. */
    public static TcpProxy start(String host, int port) throws IOException {
        TcpProxy p = new TcpProxy(host, port);
        p.acceptor.start();
        return p;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Resets every connection and every new one until {@link #restore()}. */
    public void cut() {
        mode = Mode.CUT;
        for (Conn c : snapshot()) {
            c.tainted = true;
            c.close(true);
        }
    }

    /** Drops every byte in both directions, on open and new connections, until {@link #restore()}. */
    public void blackhole() {
        mode = Mode.BLACKHOLE;
    }

    /** Forwards again; connections that lost bytes are closed. */
    public void restore() {
        mode = Mode.FORWARD;
        for (Conn c : snapshot()) {
            if (c.tainted || c.upstream == null) {
                c.close(true);
            }
        }
    }

    /** Open client connections (black-holed ones included). */
    public int connections() {
        synchronized (conns) {
            return conns.size();
        }
    }

    private List<Conn> snapshot() {
        synchronized (conns) {
            return new ArrayList<>(conns);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            Mode m = mode;
            if (m == Mode.CUT) {
                closeQuietly(s, true);
                continue;
            }
            Conn c = new Conn(s);
            synchronized (conns) {
                conns.add(c);
            }
            if (m == Mode.BLACKHOLE) {
                c.tainted = true;
                Thread t = new Thread(() -> {
                    try {
                        c.pump(s.getInputStream(), OutputStream.nullOutputStream());
                    } catch (IOException e) {
                        c.close(true);
                    }
                }, "tcp-proxy-sink");
                t.setDaemon(true);
                t.start();
                continue;
            }
            try {
                Socket up = new Socket();
                up.connect(target, 2000);
                up.setTcpNoDelay(true);
                s.setTcpNoDelay(true);
                c.upstream = up;
                startPump(c, s.getInputStream(), up.getOutputStream(), "up");
                startPump(c, up.getInputStream(), s.getOutputStream(), "down");
            } catch (IOException e) {
                c.close(true);
            }
        }
    }

    private static void startPump(Conn c, InputStream in, OutputStream out, String dir) {
        Thread t = new Thread(() -> c.pump(in, out), "tcp-proxy-" + dir);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s, boolean reset) {
        if (s == null) {
            return;
        }
        try {
            if (reset) {
                s.setSoLinger(true, 0);
            }
        } catch (SocketException e) {
            // already closed
        }
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        for (Conn c : snapshot()) {
            c.close(true);
        }
    }
}
