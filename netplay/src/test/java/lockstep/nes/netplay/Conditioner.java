package lockstep.nes.netplay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A network between two peers on loopback: a UDP relay that the joiner talks to as if it were
 * the host. Each datagram, either way, is lost with probability {@code loss}, else delivered
 * after {@code delayMs} plus a uniform jitter of up to {@code jitterMs} (datagrams overtake each
 * other when the jitter exceeds their spacing: reordering), and delivered twice with probability
 * {@code duplicate}. Seeded: the same setting draws the same fates.
 */
public final class Conditioner implements AutoCloseable {
    /** One setting of the network. */
    public record Setting(String name, int delayMs, int jitterMs, double loss, double duplicate) {
        @Override
        public String toString() {
            return name;
        }
    }

    private record Pending(long at, long seq, boolean toHost, byte[] data) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
        }
    }

    private final Setting setting;
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final InetSocketAddress host;
    private final Selector selector;
    private final Random random;
    private final PriorityQueue<Pending> queue = new PriorityQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** True: the network is down, every datagram lost. */
    public volatile boolean cut;
    private SocketAddress joiner;
    private long seq;

    public Conditioner(Setting setting, int hostPort, long seed) throws IOException {
        this.setting = setting;
        this.random = new Random(seed);
        this.host = new InetSocketAddress(InetAddress.getLoopbackAddress(), hostPort);
        front = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        back = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        front.configureBlocking(false);
        back.configureBlocking(false);
        selector = Selector.open();
        front.register(selector, SelectionKey.OP_READ);
        back.register(selector, SelectionKey.OP_READ);
        thread = new Thread(this::relay, "conditioner-" + setting.name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Where the joiner sends: the host as the joiner sees it. */
    public int port() throws IOException {
        return ((InetSocketAddress) front.getLocalAddress()).getPort();
    }

    private void relay() {
        ByteBuffer b = ByteBuffer.allocate(4096);
        try {
            while (running) {
                long now = System.nanoTime();
                while (!queue.isEmpty() && queue.peek().at <= now) {
                    Pending p = queue.poll();
                    if (p.toHost) {
                        back.send(ByteBuffer.wrap(p.data), host);
                    } else if (joiner != null) {
                        front.send(ByteBuffer.wrap(p.data), joiner);
                    }
                }
                long wait = queue.isEmpty() ? 5 : Math.max(1, (queue.peek().at - now) / 1_000_000L);
                selector.select(Math.min(wait, 5));
                selector.selectedKeys().clear();
                SocketAddress from;
                b.clear();
                while ((from = front.receive(b)) != null) {
                    joiner = from;
                    schedule(b, true);
                    b.clear();
                }
                while (back.receive(b) != null) {
                    schedule(b, false);
                    b.clear();
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void schedule(ByteBuffer b, boolean toHost) {
        b.flip();
        byte[] data = new byte[b.remaining()];
        b.get(data);
        if (cut || random.nextDouble() < setting.loss) {
            return;
        }
        int copies = random.nextDouble() < setting.duplicate ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            long ms = setting.delayMs + (setting.jitterMs > 0 ? random.nextInt(setting.jitterMs + 1) : 0);
            queue.add(new Pending(System.nanoTime() + ms * 1_000_000L, seq++, toHost, data));
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        selector.close();
        front.close();
        back.close();
    }
}
