package lockstep.nes.desktop.netplay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.netplay.DesyncReport;
import lockstep.nes.netplay.NetplayException;
import lockstep.nes.netplay.NetplayPeer;
import lockstep.nes.netplay.NetplayResult;

/**
 * A netplay session played in the window: the netplay module's peer (its rollback engine, its
 * protocol), its handshake on a thread of its own so that the window stays live while a host
 * waits, then driven by {@link #pump} once per pass of the window's loop, on the loop's thread.
 * The peer paces itself at the console's frame rate.
 */
public final class NetplayGame implements AutoCloseable {
    /** Most frames one pass runs (a pass that fell behind catches up over a few). */
    static final int MOST_PER_PASS = 3;

    private final NetplayLaunch launch;
    private final NetplayPeer peer;
    private final FutureTask<Void> handshake;
    private volatile boolean stopping;
    private boolean connected;

    private NetplayGame(NetplayLaunch launch, NetplayPeer peer) {
        this.launch = launch;
        this.peer = peer;
        this.handshake = new FutureTask<>(() -> {
            peer.connect();
            return null;
        });
        Thread t = new Thread(handshake, "netplay-handshake");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Opens the UDP socket and starts the handshake. {@code frames}: frames to play (0: until the
     * window closes); {@code log}: where desync lines go.
     */
    public static NetplayGame start(Cartridge cart, NetplayLaunch launch, String buildId, int frames, PrintStream log)
            throws NetplayException {
        NetplayPeer.Options o = new NetplayPeer.Options();
        o.delay = launch.delay();
        o.window = launch.window();
        o.frames = frames > 0 ? frames : Integer.MAX_VALUE - RINGS_SPARE;
        o.fps = cart.region().frameRate();
        o.buildId = buildId;
        // A host in a window waits for its player 2 as long as it stays open (a few minutes here).
        o.handshakeMillis = launch.host() ? 600_000 : 30_000;
        o.peerTimeoutMillis = 5_000;
        o.log = log;
        NetplayGame[] self = new NetplayGame[1];
        o.stop = () -> self[0] != null && self[0].stopping;
        NetplayPeer p = launch.host() ? NetplayPeer.host(cart, launch.port(), o) : NetplayPeer.join(cart, launch.address(), o);
        self[0] = new NetplayGame(launch, p);
        return self[0];
    }

    /** Frames kept below the largest int, so that frame numbers plus the window never overflow. */
    private static final int RINGS_SPARE = 1 << 16;

    /**
     * One pass of the window's loop: once the handshake is done, steps the session with this
     * player's {@code buttons} until no frame is due (at most {@link #MOST_PER_PASS} frames).
     * Returns the frames run. A failure of the handshake or of the session (refused, no answer,
     * the peer vanished) is thrown with its one line.
     */
    public int pump(int buttons) throws NetplayException {
        if (!connected) {
            if (!handshake.isDone()) {
                return 0;
            }
            try {
                handshake.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof NetplayException ne) {
                    throw ne;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
            connected = true;
        }
        int ran = 0;
        try {
            while (ran < MOST_PER_PASS && peer.tick(buttons)) {
                ran++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ran;
    }

    /** True once the handshake is done and the engine plays. */
    public boolean connected() {
        return connected;
    }

    /** True once the session is over. */
    public boolean ended() {
        return connected && peer.ended();
    }

    /** The engine being played (null before the handshake is done). */
    public Console console() {
        return connected ? peer.console() : null;
    }

    /** The UDP port this side listens on. */
    public int port() {
        return peer.port();
    }

    /** The session's result (complete once {@link #ended}). */
    public NetplayResult result() {
        return peer.result();
    }

    /**
     * What the window shows: the waiting line during the handshake; then the figures line, and
     * after a desync its report line.
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        if (!connected) {
            out.add(NetplayStatus.waiting(launch, peer.port()));
            return out;
        }
        out.add(NetplayStatus.line(peer.isHost(), peer.rttMillis(), peer.delay(), peer.lastRollbackDepth(), peer.rollbacks()));
        List<DesyncReport> d = peer.desyncs();
        if (!d.isEmpty()) {
            out.add(d.get(d.size() - 1).toLine());
        }
        return out;
    }

    /** True when a desync has been found (its line is shown in the error colour). */
    public boolean desynced() {
        return connected && !peer.desyncs().isEmpty();
    }

    /** Tells the peer this side leaves (when the handshake is done), and closes the socket. */
    @Override
    public void close() {
        stopping = true;
        if (connected && !peer.ended()) {
            try {
                peer.tick(0);
            } catch (NetplayException | InterruptedException | RuntimeException e) {
                // leaving: the peer will see the silence
            }
        }
        handshake.cancel(true);
        peer.close();
    }
}
