package lockstep.nes.netplay;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * A netplay peer's UDP socket: non-blocking, one datagram in and one out at a time, waits that
 * end early for a datagram, and the count of datagrams that were not the session's. A datagram
 * that cannot leave is a lost datagram (the protocol repeats what matters); an ICMP error from an
 * earlier send is dropped (the peer's silence will tell).
 */
final class PeerSocket implements Handshake.Link, AutoCloseable {
    private final NetplayPeer.Options o;
    private final DatagramChannel channel;
    private final Selector selector;
    private final ByteBuffer in = ByteBuffer.allocate(2048);
    private final ByteBuffer out = ByteBuffer.allocate(2048);
    private long foreign;

    /** A socket on UDP {@code port} (0: any free port). */
    PeerSocket(NetplayPeer.Options o, int port) throws NetplayException {
        this.o = o;
        try {
            channel = DatagramChannel.open();
            try {
                channel.bind(new InetSocketAddress(port));
            } catch (BindException e) {
                channel.close();
                throw new NetplayException(NetplayException.Kind.PORT,
                        "cannot listen on UDP port " + port + ": " + e.getMessage());
            }
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            throw new NetplayException(NetplayException.Kind.PORT, "cannot open a UDP socket: " + e.getMessage());
        }
    }

    @Override
    public ByteBuffer in() {
        return in;
    }

    @Override
    public ByteBuffer out() {
        return out;
    }

    @Override
    public int port() {
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void send(SocketAddress to) {
        out.flip();
        try {
            channel.send(out, to);
        } catch (IOException e) {
            // lost, as a datagram may be
        }
    }

    /** The next datagram waiting, in {@link #in}, and who sent it; null when none waits. */
    SocketAddress poll() {
        while (true) {
            try {
                in.clear();
                SocketAddress from = channel.receive(in);
                if (from != null) {
                    in.flip();
                }
                return from;
            } catch (IOException e) {
                // an ICMP error from an earlier send: look again
            }
        }
    }

    @Override
    public SocketAddress receive(long deadline) throws InterruptedException {
        while (true) {
            SocketAddress from = poll();
            if (from != null) {
                return from;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            if (o.stop.getAsBoolean()) {
                throw new InterruptedException("stopped");
            }
            waitForDatagram(Math.min(left, 50_000_000L));
        }
    }

    /** Waits up to {@code nanos} (at least a millisecond) or until a datagram comes. */
    void waitForDatagram(long nanos) {
        try {
            long ms = Math.max(1, nanos / 1_000_000L);
            selector.select(ms);
            selector.selectedKeys().clear();
        } catch (IOException e) {
            // the next receive says what is wrong
        }
    }

    @Override
    public void foreign() {
        foreign++;
        if (o.metrics != null) {
            o.metrics.foreign();
        }
    }

    /** Datagrams that were not the session's. */
    long foreignCount() {
        return foreign;
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }
}
