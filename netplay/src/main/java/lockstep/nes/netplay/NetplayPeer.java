package lockstep.nes.netplay;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.verifier.EpochFence;
import lockstep.nes.verifier.FaultSpec;

/**
 * One netplay peer: the host (engine A, controller port 0) or the joiner (engine B, port 1),
 * its engine under rollback ({@link RollbackEngine}) and one UDP socket (docs/design/netplay.md).
 *
 * <p>One thread runs it all: it reads every datagram waiting, adds this side's input for
 * frame {@code present + delay}, simulates the next frame when the window allows (re-simulating
 * first after a mispredicted remote input), compares the digests of confirmed frames, and sends
 * one INPUT datagram carrying every input and digest the peer has not acknowledged.
 *
 * <p>A desync (digests of a confirmed frame differ) stops both peers at the frame after it; each
 * sends the other its snapshot of the last agreed state (the host adds its state after the
 * disputed frame), both locate the first differing cycle from it ({@link DesyncLocator}), the
 * joiner adopts the host's state, and a new epoch begins: digests from before it are dropped.
 */
public final class NetplayPeer implements AutoCloseable {

    /** Settings of one peer. */
    public static final class Options {
        /**
         * Frames between a press and the frame it acts in (the host's value holds for both);
         * {@link #AUTO_DELAY}: the host chooses it from the round trips it measures at the handshake.
         */
        public int delay = 2;
        /** Frames the engine may run ahead of the peer's last input (the host's value holds for both). */
        public int window = 8;
        /** Frames to play. */
        public int frames = 600;
        /** Frames per second (0: as fast as the peers allow). */
        public double fps = 0;
        /** This peer's own input at movie frame n (bits 0-7 buttons, 8 soft reset, 9 power). */
        public IntUnaryOperator input = f -> 0;
        /** Faults planted into this peer's engine (engine A on the host, B on the joiner). */
        public List<FaultSpec> faults = List.of();
        /** The engine build's id (the canary's): peers of different builds are refused. */
        public String buildId = "dev";
        /** How long a host waits for a joiner, and a joiner for the host's answer. */
        public long handshakeMillis = 10_000;
        /** A peer silent this long mid-session is gone. */
        public long peerTimeoutMillis = 3_000;
        /** Metrics (null: none). */
        public NetplayMetrics metrics;
        /** Where desync lines go (null: nowhere). */
        public PrintStream log;
        /** True stops the session (a signal): the peer is told, and the result says interrupted. */
        public BooleanSupplier stop = () -> false;
    }

    /** {@link Options#delay}: chosen by the host from the handshake's measured round trip. */
    public static final int AUTO_DELAY = -1;
    /** Round trips the host measures at the handshake when it chooses the delay. */
    static final int PROBES = 5;

    private enum Phase { PLAYING, DESYNC }

    private final Options o;
    private final boolean host;
    private final Cartridge cart;
    private final PeerSocket socket;
    /** The socket's datagram in and datagram out. */
    private final ByteBuffer in;
    private final ByteBuffer out;
    private final EpochFence fence = new EpochFence();

    private SocketAddress peer;
    /** What the handshake agreed (null before it). */
    private Handshake handshake;
    private long session;
    private int delay;
    private int window;
    private List<FaultSpec> peerFaults = List.of();
    private RollbackEngine engine;

    // What the peer has acknowledged, and what it sent.
    private int peerInputAck;
    private int peerDigestAck;
    private final long[] peerDigests = new long[RollbackEngine.RING];
    private int peerDigestsKnown;
    private int peerPresent;
    private boolean peerDone;
    private int compared;

    // Timing.
    private long lastHeard;
    private long lastSent;
    private long echo;
    private long echoReceivedAt;
    private long rttNanos = -1;
    private long rollbackNanos;

    // A desync being resolved.
    private Phase phase = Phase.PLAYING;
    private int desyncFrame = -1;
    private int desyncSeenAt;
    private Transfer.Out sending;
    private Transfer.In receiving;
    private int lastCompletedTransfer = -1;
    private final List<DesyncReport> desyncs = new ArrayList<>();

    private NetplayPeer(Cartridge cart, Options o, boolean host, int port) throws NetplayException {
        this.o = o;
        this.host = host;
        this.cart = cart;
        this.socket = new PeerSocket(o, host ? port : 0);
        this.in = socket.in();
        this.out = socket.out();
    }

    /** A host listening on UDP {@code port} (0: any free port, see {@link #port}). */
    public static NetplayPeer host(Cartridge cart, int port, Options o) throws NetplayException {
        PeerFaults.check(o.faults, 0);
        return new NetplayPeer(cart, o, true, port);
    }

    /** A joiner that will ask {@code hostAddress} to play. */
    public static NetplayPeer join(Cartridge cart, InetSocketAddress hostAddress, Options o) throws NetplayException {
        PeerFaults.check(o.faults, 1);
        NetplayPeer p = new NetplayPeer(cart, o, false, 0);
        p.peer = hostAddress;
        return p;
    }

    /** The UDP port this peer listens on. */
    public int port() {
        return socket.port();
    }

    @Override
    public void close() {
        socket.close();
    }

    /** Runs the handshake and the session to its last frame. */
    public NetplayResult run() throws NetplayException, InterruptedException {
        connect();
        return play();
    }

    /**
     * The handshake (blocking, up to {@link Options#handshakeMillis}) and the engine's set-up;
     * then {@link #tick} plays the session one step at a time.
     */
    public void connect() throws NetplayException, InterruptedException {
        PeerIdentity me = PeerIdentity.of(cart, o.buildId);
        Handshake h = new Handshake(o, socket, peer);
        if (host) {
            h.host(me);
        } else {
            h.join(me);
        }
        handshake = h;
        peer = h.peer;
        session = h.session;
        delay = h.delay;
        window = h.window;
        peerFaults = h.peerFaults;
        rttNanos = h.rttNanos;
        lastHeard = System.nanoTime();
        try {
            engine = new RollbackEngine(cart, host ? 0 : 1, delay, o.faults, this::rolledBack);
        } catch (RomFormatException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (o.metrics != null) {
            o.metrics.delay(delay);
        }
    }

    /**
     * The input delay that hides a one-way trip: half the round trip in frames, rounded up, at
     * least 1 (a press cannot act in its own frame at any distance), below the window (a delay of
     * W or more would leave nothing for prediction to do).
     */
    public static int autoDelay(long rttNanos, double frameRate, int window) {
        long frameNanos = (long) (1e9 / frameRate);
        long d = rttNanos <= 0 ? 1 : (rttNanos / 2 + frameNanos - 1) / frameNanos;
        return (int) Math.max(1, Math.min(window - 1, d));
    }

    // ---- the session

    // The loop's state, kept between ticks.
    private boolean begun;
    private boolean ended;
    private boolean interrupted;
    private boolean advanced;
    private long period;
    private long nextFrameAt;
    private long doneAt;
    private int finals;
    private boolean live;
    private int liveButtons;

    private NetplayResult play() throws NetplayException, InterruptedException {
        while (!step()) {
            if (!advanced) {
                long wait = period > 0 ? Math.max(0, Math.min(nextFrameAt - System.nanoTime(), 2_000_000L)) : 1_000_000L;
                socket.waitForDatagram(wait);
            }
        }
        return result();
    }

    /**
     * One step of the session for a caller that owns the loop (the desktop's window): reads what
     * arrived, runs at most one frame when the pace ({@link Options#fps}) and the window allow,
     * sends; never waits. {@code buttons} is this player's input from now on (bits 0-7, 8 soft
     * reset, 9 power), in place of {@link Options#input}. Returns whether a frame ran; after
     * {@link #ended} it does nothing. Throws as {@link #run} does (a vanished peer).
     */
    public boolean tick(int buttons) throws NetplayException, InterruptedException {
        if (engine == null) {
            throw new IllegalStateException("tick before connect");
        }
        if (ended) {
            return false;
        }
        live = true;
        liveButtons = buttons;
        ended = step();
        return advanced;
    }

    /** True once the session is over (its frames played, the peer gone after its own end, or stopped). */
    public boolean ended() {
        return ended;
    }

    /** The engine being played (its picture and sound are those of the present frame). */
    public Console console() {
        return engine.console;
    }

    /** Whether this peer is the host (player 1). */
    public boolean isHost() {
        return host;
    }

    /** The smoothed round trip in milliseconds, or -1 before the first sample. */
    public double rttMillis() {
        return rttNanos < 0 ? -1 : rttNanos / 1e6;
    }

    /** The session's input delay in frames (the host's choice), known after {@link #connect}. */
    public int delay() {
        return delay;
    }

    /** The session's window in frames (the host's choice). */
    public int window() {
        return window;
    }

    /** Rollbacks so far. */
    public long rollbacks() {
        return engine.rollbacks();
    }

    /** The depth in frames of the latest rollback (0 before any). */
    public int lastRollbackDepth() {
        return lastRollbackDepth;
    }

    /** The desyncs found so far, each with its report. */
    public List<DesyncReport> desyncs() {
        return List.copyOf(desyncs);
    }

    /** The frame being played next. */
    public int present() {
        return engine.present();
    }

    /** One pass of the loop; true when the session is over. */
    private boolean step() throws NetplayException, InterruptedException {
        if (!begun) {
            begun = true;
            period = o.fps > 0 ? (long) (1e9 / o.fps) : 0;
            nextFrameAt = System.nanoTime();
            lastHeard = nextFrameAt; // the engine's set-up is not the peer's silence
        }
        advanced = false;
        long now = System.nanoTime();
        drain();
        if (o.stop.getAsBoolean()) {
            bye();
            interrupted = true;
            return true;
        }
        now = System.nanoTime();
        boolean done = phase == Phase.PLAYING && compared >= o.frames;
        if (done) {
            if (doneAt == 0) {
                doneAt = now;
            }
            if (peerDone) {
                // A few more, so that the peer hears this side is done even over a lossy link.
                if (finals++ >= 4) {
                    return true;
                }
            } else if (now - lastHeard > 1_000_000_000L) {
                return true; // this side has all it needs; the peer went quiet after its own end
            }
        } else if (now - lastHeard > o.peerTimeoutMillis * 1_000_000L) {
            throw new NetplayException(NetplayException.Kind.PEER_LOST, "peer " + hostTextOf(peer)
                    + " sent nothing for " + o.peerTimeoutMillis / 1000.0 + " s at frame " + engine.present()
                    + ": it left or the network is down");
        }
        if (phase == Phase.PLAYING) {
            addLocalInputs();
            boolean paced = period == 0 || now - nextFrameAt >= 0;
            // No frame runs more than window + delay frames past the last compared one, so a
            // desync is seen within window + delay frames of its frame; and the ring keeps
            // every frame the peer may still need a digest of.
            int limit = Math.min(compared + window + delay, Math.min(compared, peerDigestAck) + RollbackEngine.RING - 8);
            if (paced && engine.present() < o.frames && engine.present() < limit && engine.canAdvance(window)) {
                engine.advance();
                advanced = true;
                if (period > 0) {
                    nextFrameAt += period;
                    // A peer running ahead of the other waits a little: both keep the same pace.
                    if (engine.present() - estimatedPeerPresent() > 1) {
                        nextFrameAt += period / 4;
                    }
                    if (now - nextFrameAt > period) {
                        nextFrameAt = now;
                    }
                }
            } else {
                engine.settle();
            }
            compareDigests();
        } else {
            resolveDesync(now);
        }
        if (advanced || now - lastSent > 2_000_000L || done) {
            sendInputs(done);
        }
        if (o.metrics != null) {
            o.metrics.ahead(engine.present() - peerPresent);
        }
        return false;
    }

    /** The session's result (complete once {@link #ended}). */
    public NetplayResult result() {
        return new NetplayResult(host ? "host" : "join", engine.present(), engine.rollbacks(), engine.deepest(),
                engine.resimulated(), rollbackNanos, List.copyOf(desyncs), engine.stateHash(),
                rttNanos < 0 ? -1 : rttNanos / 1e6, delay, window, socket.foreignCount(), interrupted,
                engine.log(0).toArray(), engine.log(1).toArray());
    }

    private int estimatedPeerPresent() {
        long oneWay = rttNanos > 0 ? rttNanos / 2 : 0;
        return peerPresent + (int) (o.fps > 0 ? oneWay * o.fps / 1e9 : 0);
    }

    private static String hostTextOf(SocketAddress a) {
        InetSocketAddress s = (InetSocketAddress) a;
        return s.getHostString() + ":" + s.getPort();
    }

    /** This side's inputs up to frame present + delay: movie frame n acts at frame n + delay. */
    private void addLocalInputs() {
        InputLog local = engine.log(engine.side);
        int upTo = Math.min(engine.present() + delay, o.frames - 1);
        while (local.known() <= upTo) {
            engine.addLocal(live ? liveButtons : o.input.applyAsInt(local.known() - delay));
        }
    }

    private int lastRollbackDepth;

    private void rolledBack(int depth, long nanos) {
        rollbackNanos += nanos;
        lastRollbackDepth = depth;
        if (o.metrics != null) {
            o.metrics.rolledBack(depth, nanos);
        }
    }

    private void compareDigests() {
        int confirmed = engine.confirmed();
        while (compared < confirmed && compared < peerDigestsKnown) {
            long mine = engine.digest(compared);
            long theirs = peerDigests[compared % RollbackEngine.RING];
            if (mine != theirs) {
                beginDesync(compared);
                return;
            }
            compared++;
        }
    }

    private void beginDesync(int frame) {
        phase = Phase.DESYNC;
        desyncFrame = frame;
        desyncSeenAt = engine.present();
        if (o.metrics != null) {
            o.metrics.desync();
        }
    }

    /**
     * Both peers stop at the frame after the disputed one; once this side has confirmed it, it
     * sends its snapshots, and once both transfers are done it locates the difference and resumes.
     */
    private void resolveDesync(long now) throws InterruptedException {
        final int d = desyncFrame;
        if (sending == null) {
            if (engine.present() > d + 1) {
                engine.rewind(d + 1);
            }
            addLocalInputs();
            if (engine.present() <= d && engine.canAdvance(window)) {
                engine.advance();
                return;
            }
            engine.settle();
            if (engine.confirmed() <= d || engine.present() != d + 1) {
                return;
            }
            byte[] agreed = engine.snapshot(d);
            byte[] blob;
            if (host) {
                byte[] resume = engine.snapshot(d + 1);
                blob = ByteBuffer.allocate(8 + agreed.length + resume.length).putInt(agreed.length).put(agreed)
                        .putInt(resume.length).put(resume).array();
            } else {
                blob = ByteBuffer.allocate(4 + agreed.length).putInt(agreed.length).put(agreed).array();
            }
            sending = new Transfer.Out(d, blob);
            if (receiving == null || receiving.id != d) {
                receiving = new Transfer.In(d);
            }
        }
        if (sending.due(now)) {
            for (int i = 0; i < sending.chunks(); i++) {
                Wire.header(out, Wire.CHUNK, session);
                sending.chunk(out, i);
                send(peer);
            }
        }
        if (!sending.acked || !receiving.complete()) {
            return;
        }
        if (locating == null) {
            startLocating(d);
        }
        if (!locating.isDone()) {
            return; // the datagrams go on meanwhile, so the peer does not take the pause for a vanishing
        }
        finishDesync(d);
    }

    /**
     * Locates the desync on a thread of its own ({@link DesyncLocator} runs two engines over the
     * disputed frame): the loop keeps the datagrams going meanwhile.
     */
    private void startLocating(int d) {
        ByteBuffer theirs = ByteBuffer.wrap(receiving.data());
        byte[] peerAgreed = new byte[theirs.getInt()];
        theirs.get(peerAgreed);
        if (!host) {
            hostResume = new byte[theirs.getInt()];
            theirs.get(hostResume);
        }
        final byte[] agreed = engine.snapshot(d);
        final boolean same = java.util.Arrays.equals(agreed, peerAgreed);
        final int[] hostLog = engine.log(0).toArray();
        final int[] joinLog = engine.log(1).toArray();
        final List<FaultSpec> hostFaults = host ? o.faults : peerFaults;
        final List<FaultSpec> joinFaults = host ? peerFaults : o.faults;
        final long mine = engine.digest(d);
        final long other = peerDigests[d % RollbackEngine.RING];
        final int seenAt = desyncSeenAt;
        locating = new java.util.concurrent.FutureTask<>(() -> new DesyncReport(d, seenAt, host ? mine : other,
                host ? other : mine, same, DesyncLocator.locate(cart, agreed, d, 1, hostLog, joinLog, hostFaults, joinFaults),
                "host's state at the start of frame " + (d + 1)));
        Thread t = new Thread(locating, "netplay-locate");
        t.setDaemon(true);
        t.start();
    }

    private java.util.concurrent.FutureTask<DesyncReport> locating;
    private byte[] hostResume;

    private void finishDesync(int d) throws InterruptedException {
        DesyncReport r;
        try {
            r = locating.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("locating the desync failed: " + e.getCause(), e.getCause());
        }
        locating = null;
        desyncs.add(r);
        if (o.log != null) {
            o.log.println(r.toLine());
        }
        if (!host) {
            try {
                engine.adopt(d + 1, hostResume);
                hostResume = null;
            } catch (SnapshotException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        lastCompletedTransfer = d;
        sending = null;
        receiving = null;
        phase = Phase.PLAYING;
        desyncFrame = -1;
        compared = d + 1;
        peerDigestsKnown = d + 1;
        peerDigestAck = d + 1;
        fence.advance();
    }

    // ---- datagrams

    private void sendInputs(boolean done) {
        long now = System.nanoTime();
        Wire.header(out, Wire.INPUT, session);
        out.putLong(fence.current()).put((byte) (done ? 1 : 0)).putInt(engine.present())
                .putInt(engine.log(1 - engine.side).known()).putInt(peerDigestsKnown)
                .putInt(phase == Phase.DESYNC ? desyncFrame : -1)
                .putLong(now).putLong(echo).putLong(echo == 0 ? 0 : now - echoReceivedAt);
        InputLog local = engine.log(engine.side);
        int first = Math.min(peerInputAck, local.known());
        int n = Math.min(Wire.MAX_INPUTS, local.known() - first);
        out.putInt(first).putShort((short) n);
        for (int i = 0; i < n; i++) {
            out.putShort((short) local.get(first + i));
        }
        int dFirst = peerDigestAck;
        int confirmed = phase == Phase.PLAYING ? engine.confirmed() : Math.min(engine.confirmed(), desyncFrame + 1);
        int dn = Math.max(0, Math.min(Wire.MAX_DIGESTS, confirmed - dFirst));
        out.putInt(dFirst).putShort((short) dn);
        for (int i = 0; i < dn; i++) {
            out.putLong(engine.digest(dFirst + i));
        }
        send(peer);
        lastSent = now;
    }

    private void bye() {
        if (peer != null && session != 0) {
            for (int i = 0; i < 3; i++) {
                Wire.header(out, Wire.BYE, session);
                send(peer);
            }
        }
    }

    /** Handles every datagram waiting. */
    private void drain() throws NetplayException {
        while (true) {
            SocketAddress from = socket.poll();
            if (from == null) {
                return;
            }
            int type = Wire.type(in);
            if (type < 0 || !from.equals(peer)) {
                foreign();
                continue;
            }
            if (host && type == Wire.HELLO && Wire.session(in) == handshake.welcomeNonce) {
                handshake.resendWelcome(); // the WELCOME was lost
                continue;
            }
            if (Wire.session(in) != session) {
                foreign();
                continue;
            }
            in.position(Wire.HEADER);
            try {
                switch (type) {
                    case Wire.INPUT -> onInput(System.nanoTime());
                    case Wire.CHUNK -> onChunk();
                    case Wire.CHUNK_ACK -> {
                        Wire.need(in, 4);
                        int id = in.getInt();
                        if (sending != null && sending.id == id) {
                            sending.acked = true;
                        }
                    }
                    case Wire.BYE -> {
                        if (!(phase == Phase.PLAYING && compared >= o.frames)) {
                            throw new NetplayException(NetplayException.Kind.PEER_LOST, "peer " + hostTextOf(peer)
                                    + " left the session at frame " + peerPresent);
                        }
                    }
                    default -> foreign();
                }
            } catch (Wire.Malformed e) {
                foreign();
            }
        }
    }

    private void onInput(long now) {
        Wire.need(in, 8 + 1 + 4 * 4 + 24 + 6);
        long epoch = in.getLong();
        boolean done = in.get() != 0;
        int present = in.getInt();
        int inputAck = in.getInt();
        int digestAck = in.getInt();
        int theirDesync = in.getInt();
        long sentAt = in.getLong();
        long echoed = in.getLong();
        long held = in.getLong();
        int first = in.getInt();
        int n = in.getShort() & 0xFFFF;
        if (n > Wire.MAX_INPUTS || first < 0 || inputAck < 0 || digestAck < 0 || present < 0) {
            foreign();
            return;
        }
        Wire.need(in, n * 2 + 6);
        lastHeard = now;
        peerDone = done;
        peerPresent = Math.max(peerPresent, present);
        echo = sentAt;
        echoReceivedAt = now;
        if (echoed != 0 && held >= 0 && now - echoed - held > 0) {
            long sample = now - echoed - held;
            rttNanos = rttNanos < 0 ? sample : (rttNanos * 7 + sample) / 8;
            if (o.metrics != null) {
                o.metrics.rtt(rttNanos);
            }
        }
        peerInputAck = Math.max(peerInputAck, Math.min(inputAck, engine.log(engine.side).known()));
        for (int i = 0; i < n; i++) {
            engine.addRemote(first + i, in.getShort() & 0x3FF);
        }
        int dFirst = in.getInt();
        int dn = in.getShort() & 0xFFFF;
        if (dn > Wire.MAX_DIGESTS || dFirst < 0) {
            return;
        }
        Wire.need(in, dn * 8);
        final boolean current = epoch == fence.current();
        // Digests and their acks from before a resync describe states since replaced: dropped.
        fence.write(epoch, () -> { });
        if (!current || phase != Phase.PLAYING) {
            if (current && theirDesync >= 0 && phase == Phase.PLAYING) {
                beginDesync(theirDesync);
            }
            if (current && phase == Phase.DESYNC) {
                takeDigests(dFirst, dn);
            }
            return;
        }
        peerDigestAck = Math.max(peerDigestAck, Math.min(digestAck, engine.confirmed()));
        takeDigests(dFirst, dn);
        if (theirDesync >= 0 && theirDesync >= compared) {
            beginDesync(theirDesync);
        }
    }

    private void takeDigests(int first, int n) {
        for (int i = 0; i < n; i++) {
            long d = in.getLong();
            int f = first + i;
            if (f == peerDigestsKnown && f >= engine.present() - RollbackEngine.RING + 1) {
                peerDigests[f % RollbackEngine.RING] = d;
                peerDigestsKnown++;
            }
        }
    }

    private void onChunk() {
        Wire.need(in, 4);
        int id = in.getInt(in.position());
        if (id == lastCompletedTransfer || (receiving != null && receiving.id == id && receiving.complete())) {
            ack(id);
            return;
        }
        if (phase != Phase.DESYNC || id != desyncFrame) {
            return; // a chunk of a desync this side has not seen yet: its sender repeats it
        }
        if (receiving == null) {
            receiving = new Transfer.In(id);
        }
        if (receiving.take(in) && receiving.complete()) {
            ack(id);
        }
    }

    private void ack(int id) {
        Wire.header(out, Wire.CHUNK_ACK, session);
        out.putInt(id);
        send(peer);
    }

    private void foreign() {
        socket.foreign();
    }

    private void send(SocketAddress to) {
        socket.send(to);
    }
}
