package lockstep.nes.netplay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

/**
 * Two peers driven one tick at a time from one thread, as the desktop's loop drives its peer:
 * the buttons given to each tick are that player's input, and both end in the state a replay of
 * the merged log reaches.
 */
class TickedSessionTest {

    private static final int FRAMES = 600;

    @Test
    void twoTickedPeersOverALossyLinkEndInTheReplayedState() throws Exception {
        Cartridge cart = TwoPadRom.cartridge();
        NetplayPeer.Options ho = Sessions.options(FRAMES, f -> 0, List.of());
        NetplayPeer.Options jo = Sessions.options(FRAMES, f -> 0, List.of());
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (NetplayPeer host = NetplayPeer.host(cart, 0, ho);
             Conditioner net = new Conditioner(new Conditioner.Setting("lossy", 3, 3, 0.05, 0.02), host.port(), 7);
             NetplayPeer join = NetplayPeer.join(cart,
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), net.port()), jo)) {
            Future<?> h = pool.submit(() -> {
                host.connect();
                return null;
            });
            join.connect();
            h.get(30, TimeUnit.SECONDS);

            IntUnaryOperator p1 = Sessions.player(11, false);
            IntUnaryOperator p2 = Sessions.player(12, false);
            int hostFrames = 0;
            int joinFrames = 0;
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!(host.ended() && join.ended())) {
                assertTrue(System.nanoTime() < deadline, "the ticked session did not end");
                // The pressed buttons change with the frames each side has run, as a player's would.
                if (host.tick(p1.applyAsInt(hostFrames / 2))) {
                    hostFrames++;
                }
                if (join.tick(p2.applyAsInt(joinFrames / 2))) {
                    joinFrames++;
                }
                Thread.sleep(0, 200_000);
            }
            NetplayResult hr = host.result();
            NetplayResult jr = join.result();
            assertEquals(FRAMES, hr.frames());
            assertEquals(FRAMES, jr.frames());
            // Each frame runs forward once: a rollback replays up to the present in the same tick.
            assertEquals(FRAMES, hostFrames);
            assertEquals(FRAMES, joinFrames);
            assertEquals(host.delay(), join.delay());
            assertTrue(hr.desyncs().isEmpty() && jr.desyncs().isEmpty());
            int pressed = 0;
            for (int f = 0; f < FRAMES; f++) {
                pressed |= hr.hostInputs()[f] & hr.joinerInputs()[f];
            }
            assertTrue(pressed != 0, "the ticks' buttons reached both sides' logs");
            String truth = Sessions.replay(cart, hr.hostInputs(), hr.joinerInputs(), FRAMES);
            assertEquals(truth, hr.finalStateHash());
            assertEquals(truth, jr.finalStateHash());
            assertTrue(host.rttMillis() >= 0 && join.rttMillis() >= 0);
        } finally {
            pool.shutdownNow();
        }
    }
}
