package lockstep.nes.netplay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The datagram format (docs/design/netplay.md). Every datagram starts with the magic
 * {@code LSNP}, the protocol version, its type and the session id; big-endian throughout. A
 * datagram that is too short, has another magic or version, or an unknown type is not netplay's
 * and is dropped; one with another session id belongs to another (or an old) session and is
 * dropped too.
 */
final class Wire {
    private Wire() {
    }

    static final int MAGIC = 0x4C534E50; // "LSNP"
    static final int VERSION = 1;
    /** Header: magic (4), version (1), type (1), session id (8). */
    static final int HEADER = 14;
    /** The largest datagram sent: under the usual 1,500-byte MTU with IP and UDP headers. */
    static final int MAX_DATAGRAM = 1200;

    /** Joiner to host: the joiner's nonce (as session id), its identity and its planted faults. */
    static final int HELLO = 1;
    /** Host to joiner: the session id, the nonce echoed, the host's identity, delay and window. */
    static final int WELCOME = 2;
    /** Host to joiner: the handshake is refused; the reason in one line. */
    static final int REFUSE = 3;
    /** Both ways, every tick: inputs not yet acknowledged, acks, confirmed-frame digests, timing. */
    static final int INPUT = 4;
    /** A chunk of a snapshot transfer (a desync's exchange). */
    static final int CHUNK = 5;
    /** The receiver has the whole transfer. */
    static final int CHUNK_ACK = 6;
    /** The sender leaves the session. */
    static final int BYE = 7;
    /** Host to joiner at the handshake, when the host chooses the delay: a send time to echo. */
    static final int PING = 8;
    /** Joiner to host: a PING's send time echoed. */
    static final int PONG = 9;

    /** Most inputs and digests one INPUT datagram carries (the rest go in the next one). */
    static final int MAX_INPUTS = 128;
    static final int MAX_DIGESTS = 96;
    /** Payload bytes of one CHUNK. */
    static final int CHUNK_BYTES = 1024;

    static void header(ByteBuffer b, int type, long session) {
        b.clear();
        b.putInt(MAGIC).put((byte) VERSION).put((byte) type).putLong(session);
    }

    /** The type of a datagram in {@code b} (position 0, limit its length), or -1 when it is not netplay's. */
    static int type(ByteBuffer b) {
        if (b.remaining() < HEADER || b.getInt(0) != MAGIC || b.get(4) != VERSION) {
            return -1;
        }
        int t = b.get(5);
        return t >= HELLO && t <= PONG ? t : -1;
    }

    static long session(ByteBuffer b) {
        return b.getLong(6);
    }

    static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(bytes.length, 400);
        b.putShort((short) n).put(bytes, 0, n);
    }

    /** A string written by {@link #putString}; throws {@link Malformed} past the datagram's end. */
    static String getString(ByteBuffer b) {
        need(b, 2);
        int n = b.getShort() & 0xFFFF;
        need(b, n);
        byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static void need(ByteBuffer b, int n) {
        if (b.remaining() < n) {
            throw Malformed.INSTANCE;
        }
    }

    /** A datagram whose fields run past its end: dropped like any foreign datagram. */
    static final class Malformed extends RuntimeException {
        static final Malformed INSTANCE = new Malformed();

        private Malformed() {
            super("malformed datagram", null, false, false);
        }
    }
}
