package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.ppu.Region;
import org.junit.jupiter.api.Test;

/**
 * What can go wrong between two peers: each ends in one line saying what, of a kind the command
 * line maps to its exit code, and within seconds (nothing hangs).
 */
class NetplayFailuresTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** Runs a host and a joiner straight on loopback; returns what each threw (null: it finished). */
    private static Throwable[] pair(Cartridge hostCart, NetplayPeer.Options ho, Cartridge joinCart, NetplayPeer.Options jo)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NetplayPeer host = NetplayPeer.host(hostCart, 0, ho);
             NetplayPeer join = NetplayPeer.join(joinCart, new InetSocketAddress(LOOPBACK, host.port()), jo)) {
            Future<NetplayResult> h = pool.submit(host::run);
            Future<NetplayResult> j = pool.submit(join::run);
            return new Throwable[] {thrown(h), thrown(j)};
        } finally {
            pool.shutdownNow();
        }
    }

    private static Throwable thrown(Future<NetplayResult> f) throws Exception {
        try {
            f.get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static NetplayPeer.Options quick(int frames) {
        NetplayPeer.Options o = Sessions.options(frames, Sessions.player(5, false), List.of());
        o.handshakeMillis = 3000;
        o.peerTimeoutMillis = 1000;
        return o;
    }

    private static NetplayException kind(Throwable t, NetplayException.Kind kind) {
        assertTrue(t instanceof NetplayException, String.valueOf(t));
        NetplayException e = (NetplayException) t;
        assertEquals(kind, e.kind(), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
        return e;
    }

    @Test
    void anotherRomIsRefusedOnBothSidesNamingTheRom() throws Exception {
        Throwable[] t = pair(TwoPadRom.cartridge(), quick(60), DemoRom.cartridge(), quick(60));
        for (Throwable x : t) {
            String m = kind(x, NetplayException.Kind.REFUSED).getMessage();
            assertTrue(m.contains("ROM differs (sha1 "), m);
            assertTrue(!m.contains("region") && !m.contains("build"), m);
        }
    }

    @Test
    void anotherRegionOrBuildIsRefusedNamingIt() throws Exception {
        NetplayPeer.Options jo = quick(60);
        jo.buildId = "other-build";
        Throwable[] t = pair(TwoPadRom.cartridge(), quick(60), TwoPadRom.cartridge().withRegion(Region.PAL), jo);
        for (Throwable x : t) {
            String m = kind(x, NetplayException.Kind.REFUSED).getMessage();
            assertTrue(m.contains("region differs (ntsc on the host, pal on the joiner)"), m);
            assertTrue(m.contains("engine build differs (test-build on the host, other-build on the joiner)"), m);
            assertTrue(!m.contains("ROM differs"), m);
        }
    }

    @Test
    void aPortInUseIsOneLine() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress(0))) {
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            NetplayException e = assertThrows(NetplayException.class, () -> NetplayPeer.host(TwoPadRom.cartridge(), port, quick(60)));
            kind(e, NetplayException.Kind.PORT);
            assertTrue(e.getMessage().startsWith("cannot listen on UDP port " + port), e.getMessage());
        }
    }

    @Test
    void noHostAnswersWithinTheHandshakeTime() throws Exception {
        int port;
        try (DatagramChannel probe = DatagramChannel.open().bind(new InetSocketAddress(0))) {
            port = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        NetplayPeer.Options o = quick(60);
        o.handshakeMillis = 500;
        long t0 = System.nanoTime();
        try (NetplayPeer join = NetplayPeer.join(TwoPadRom.cartridge(), new InetSocketAddress(LOOPBACK, port), o)) {
            NetplayException e = assertThrows(NetplayException.class, join::run);
            kind(e, NetplayException.Kind.NO_ANSWER);
        }
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
    }

    @Test
    void aPeerThatVanishesIsNamedWithinTheTimeoutOnTheOtherSide() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NetplayPeer host = NetplayPeer.host(cart, 0, quick(1_000_000));
             Conditioner net = new Conditioner(new Conditioner.Setting("clean", 0, 0, 0, 0), host.port(), 1);
             NetplayPeer join = NetplayPeer.join(cart, new InetSocketAddress(LOOPBACK, net.port()), quick(1_000_000))) {
            Future<NetplayResult> h = pool.submit(host::run);
            Future<NetplayResult> j = pool.submit(join::run);
            Thread.sleep(2500);
            net.cut = true;
            long t0 = System.nanoTime();
            for (Throwable x : new Throwable[] {thrown(h), thrown(j)}) {
                String m = kind(x, NetplayException.Kind.PEER_LOST).getMessage();
                assertTrue(m.contains("sent nothing for 1.0 s"), m);
                assertTrue(Integer.parseInt(m.replaceAll(".* at frame (\\d+):.*", "$1")) > 100,
                        "lost when the network went down, not before: " + m);
            }
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "both gave up within seconds");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void garbageAndForeignSessionsAreDroppedAndPlayStaysExact() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        int frames = 1200;
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (NetplayPeer host = NetplayPeer.host(cart, 0, Sessions.options(frames, Sessions.player(8, false), List.of()));
             DatagramChannel noise = DatagramChannel.open()) {
            InetSocketAddress target = new InetSocketAddress(LOOPBACK, host.port());
            Random r = new Random(3);
            // Garbage before the handshake: the host waits on for a real HELLO.
            for (int i = 0; i < 50; i++) {
                noise.send(ByteBuffer.wrap(garbage(r, i)), target);
            }
            Future<NetplayResult> h = pool.submit(host::run);
            NetplayPeer join = NetplayPeer.join(cart, target, Sessions.options(frames, Sessions.player(9, false), List.of()));
            Future<NetplayResult> j = pool.submit(join::run);
            Future<?> spam = pool.submit(() -> {
                for (int i = 0; i < 400 && !h.isDone(); i++) {
                    noise.send(ByteBuffer.wrap(garbage(r, i)), target);
                    Thread.sleep(2);
                }
                return null;
            });
            NetplayResult hr = h.get(60, TimeUnit.SECONDS);
            NetplayResult jr = j.get(60, TimeUnit.SECONDS);
            spam.get(10, TimeUnit.SECONDS);
            join.close();
            assertTrue(hr.foreignDatagrams() >= 50, "dropped: " + hr.foreignDatagrams());
            String truth = Sessions.replay(cart, hr.hostInputs(), hr.joinerInputs(), frames);
            assertEquals(truth, hr.finalStateHash());
            assertEquals(truth, jr.finalStateHash());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Random bytes; every third one a well-formed INPUT header of another session, and a malformed HELLO. */
    private static byte[] garbage(Random r, int i) {
        if (i % 3 == 0) {
            ByteBuffer b = ByteBuffer.allocate(200);
            Wire.header(b, i % 2 == 0 ? Wire.INPUT : Wire.HELLO, r.nextLong());
            for (int k = 0; k < 20; k++) {
                b.put((byte) r.nextInt());
            }
            return java.util.Arrays.copyOf(b.array(), b.position());
        }
        byte[] g = new byte[1 + r.nextInt(300)];
        r.nextBytes(g);
        return g;
    }
}
