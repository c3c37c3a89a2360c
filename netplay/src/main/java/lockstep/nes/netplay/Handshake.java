package lockstep.nes.netplay;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.ppu.Region;
import lockstep.nes.verifier.FaultSpec;

/**
 * How two netplay peers agree to play (docs/design/netplay.md): the joiner repeats HELLO with its
 * identity (ROM, region, build) and planted faults; the host refuses a peer that differs, or
 * measures the round trip with PINGs when it chooses the delay, and answers WELCOME with the
 * session id, the delay, the window, its identity and its faults. What they agreed on stays in
 * the fields below for the session.
 */
final class Handshake {
    /** The datagrams of the peer's socket, shared with the session that follows. */
    interface Link {
        /** The datagram last received, positioned at its start. */
        ByteBuffer in();

        /** The datagram being written. */
        ByteBuffer out();

        /** Sends what {@link #out} holds. */
        void send(SocketAddress to);

        /** Waits for a datagram until {@code deadline} (System.nanoTime); null when none came. */
        SocketAddress receive(long deadline) throws InterruptedException;

        /** A datagram that is not this session's, counted. */
        void foreign();

        /** The UDP port this peer listens on. */
        int port();
    }

    private final NetplayPeer.Options o;
    private final Link link;
    private final ByteBuffer in;
    private final ByteBuffer out;
    private final SecureRandom random = new SecureRandom();

    /** The other peer: the host's address for a joiner from the start, the joiner's once it said HELLO. */
    SocketAddress peer;
    long session;
    int delay;
    int window;
    List<FaultSpec> peerFaults = List.of();
    /** The host's measured round trip, or -1. */
    long rttNanos = -1;
    /** The joiner's HELLO nonce the host welcomed, and the identity it welcomed with. */
    long welcomeNonce;
    private PeerIdentity welcomeIdentity;

    Handshake(NetplayPeer.Options o, Link link, SocketAddress peer) {
        this.o = o;
        this.link = link;
        this.in = link.in();
        this.out = link.out();
        this.peer = peer;
    }

    /** The host's WELCOME again, for a joiner that repeats its HELLO (the first was lost). */
    void resendWelcome() {
        sendWelcome(welcomeIdentity, welcomeNonce);
    }

    void host(PeerIdentity me) throws NetplayException, InterruptedException {
        long deadline = System.nanoTime() + o.handshakeMillis * 1_000_000L;
        while (true) {
            SocketAddress from = link.receive(deadline);
            if (from == null) {
                throw new NetplayException(NetplayException.Kind.NO_ANSWER,
                        "no joiner on UDP port " + link.port() + " within " + o.handshakeMillis / 1000 + " s");
            }
            if (Wire.type(in) != Wire.HELLO) {
                link.foreign();
                continue;
            }
            long nonce = Wire.session(in);
            PeerIdentity them;
            List<FaultSpec> faults;
            try {
                in.position(Wire.HEADER);
                them = readIdentity(in);
                faults = readFaults(in);
            } catch (Wire.Malformed | IllegalArgumentException e) {
                link.foreign();
                continue;
            }
            String why = PeerIdentity.mismatch(me, them);
            if (why != null) {
                for (int i = 0; i < 3; i++) {
                    Wire.header(out, Wire.REFUSE, nonce);
                    Wire.putString(out, why);
                    link.send(from);
                }
                throw new NetplayException(NetplayException.Kind.REFUSED, "refused " + from + ": " + why);
            }
            peer = from;
            peerFaults = faults;
            session = nonZero();
            window = o.window;
            delay = o.delay == NetplayPeer.AUTO_DELAY ? NetplayPeer.autoDelay(probe(nonce, deadline), me.region().frameRate(), window) : o.delay;
            // The joiner repeats HELLO until it has WELCOME: the first INPUT it sends ends the wait.
            sendWelcome(me, nonce);
            return;
        }
    }

    /**
     * The host's round-trip samples before it welcomes the joiner: PINGs answered by PONGs, one
     * at a time (each waits up to 250 ms), {@link NetplayPeer#PROBES} of them; the median is the round trip
     * the delay is chosen from (one late sample does not decide it). -1 when none came back.
     */
    private long probe(long nonce, long deadline) throws InterruptedException {
        long[] samples = new long[NetplayPeer.PROBES];
        int n = 0;
        for (int attempt = 0; attempt < 2 * NetplayPeer.PROBES && n < NetplayPeer.PROBES; attempt++) {
            long sent = System.nanoTime();
            Wire.header(out, Wire.PING, nonce);
            out.putLong(sent);
            link.send(peer);
            long until = Math.min(deadline, sent + 250_000_000L);
            while (true) {
                SocketAddress from = link.receive(until);
                if (from == null) {
                    break;
                }
                int type = Wire.type(in);
                if (from.equals(peer) && type == Wire.HELLO && Wire.session(in) == nonce) {
                    continue; // the joiner repeating its HELLO while it waits
                }
                if (!from.equals(peer) || type != Wire.PONG || Wire.session(in) != nonce
                        || in.limit() < Wire.HEADER + 8 || in.getLong(Wire.HEADER) != sent) {
                    link.foreign();
                    continue;
                }
                samples[n++] = System.nanoTime() - sent;
                break;
            }
        }
        if (n == 0) {
            return -1;
        }
        java.util.Arrays.sort(samples, 0, n);
        rttNanos = samples[n / 2];
        return rttNanos;
    }

    private void sendWelcome(PeerIdentity me, long nonce) {
        Wire.header(out, Wire.WELCOME, nonce);
        out.putLong(session).putInt(delay).putInt(window);
        writeIdentity(out, me);
        writeFaults(out, o.faults);
        link.send(peer);
        welcomeNonce = nonce;
        welcomeIdentity = me;
    }

    void join(PeerIdentity me) throws NetplayException, InterruptedException {
        long nonce = nonZero();
        long deadline = System.nanoTime() + o.handshakeMillis * 1_000_000L;
        long nextHello = 0;
        while (true) {
            long now = System.nanoTime();
            if (now - nextHello >= 0) {
                Wire.header(out, Wire.HELLO, nonce);
                writeIdentity(out, me);
                writeFaults(out, o.faults);
                link.send(peer);
                nextHello = now + 100_000_000L;
            }
            SocketAddress from = link.receive(Math.min(deadline, nextHello));
            if (from == null) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new NetplayException(NetplayException.Kind.NO_ANSWER,
                            "no answer from " + hostText() + " within " + o.handshakeMillis / 1000 + " s");
                }
                continue;
            }
            int type = Wire.type(in);
            if (from.equals(peer) && type == Wire.PING && Wire.session(in) == nonce && in.limit() >= Wire.HEADER + 8) {
                long sent = in.getLong(Wire.HEADER);
                Wire.header(out, Wire.PONG, nonce);
                out.putLong(sent);
                link.send(peer);
                continue;
            }
            if (!from.equals(peer) || (type != Wire.WELCOME && type != Wire.REFUSE) || Wire.session(in) != nonce) {
                link.foreign();
                continue;
            }
            try {
                in.position(Wire.HEADER);
                if (type == Wire.REFUSE) {
                    throw new NetplayException(NetplayException.Kind.REFUSED,
                            "refused by " + hostText() + ": " + Wire.getString(in));
                }
                Wire.need(in, 16);
                session = in.getLong();
                delay = in.getInt();
                window = in.getInt();
                PeerIdentity them = readIdentity(in);
                peerFaults = readFaults(in);
                String why = PeerIdentity.mismatch(them, me);
                if (why != null) {
                    throw new NetplayException(NetplayException.Kind.REFUSED, "refused " + hostText() + ": " + why);
                }
                if (delay < 0 || delay > 60 || window < 1 || window > 60) {
                    link.foreign();
                    continue;
                }
            } catch (Wire.Malformed | IllegalArgumentException e) {
                link.foreign();
                continue;
            }
            return;
        }
    }

    private String hostText() {
        InetSocketAddress a = (InetSocketAddress) peer;
        return a.getHostString() + ":" + a.getPort();
    }

    private static void writeIdentity(ByteBuffer b, PeerIdentity id) {
        Wire.putString(b, id.romSha1());
        Wire.putString(b, id.region().id());
        Wire.putString(b, id.buildId());
    }

    private static PeerIdentity readIdentity(ByteBuffer b) {
        String sha1 = Wire.getString(b);
        Region region = Region.byId(Wire.getString(b));
        if (region == null) {
            throw new IllegalArgumentException("unknown region");
        }
        return new PeerIdentity(sha1, region, Wire.getString(b));
    }

    private static void writeFaults(ByteBuffer b, List<FaultSpec> faults) {
        b.put((byte) faults.size());
        for (FaultSpec f : faults) {
            Wire.putString(b, f.toString());
        }
    }

    private static List<FaultSpec> readFaults(ByteBuffer b) {
        Wire.need(b, 1);
        int n = b.get() & 0xFF;
        List<FaultSpec> faults = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            faults.add(FaultSpec.parse(Wire.getString(b)));
        }
        return faults;
    }

    private long nonZero() {
        long v;
        do {
            v = random.nextLong();
        } while (v == 0);
        return v;
    }
}
