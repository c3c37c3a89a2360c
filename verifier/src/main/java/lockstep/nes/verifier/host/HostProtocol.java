package lockstep.nes.verifier.host;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import lockstep.nes.core.cheat.Cheats;

/**
 * The engine-host protocol (docs/engine-host-protocol.md): length-prefixed binary messages on the
 * host's stdin (requests) and stdout (responses). A message is {@code u32 length, u8 type,
 * payload[length - 1]}; all integers are big-endian; a string is {@code u16 byteLength, UTF-8};
 * a byte string is {@code u32 length, bytes}.
 *
 * <p>Bump {@link #VERSION} on any change to a message or to the hash definitions in
 * {@link #hashStart()}. A controller accepts hosts from {@link #MIN_VERSION} to {@link #VERSION}
 * (a newer version only adds requests, so an older build's host still serves the requests it
 * knows) and refuses any other at the handshake.
 *
 * <p>Version 2 added INJECT, RUN_STREAM and FAULT_FIRED (for {@code verify --mode processes}).
 * Version 3 added HASHES: a controller whose two hosts both speak version 3 switches their
 * observable hashes to XXH64 ({@link Xxh64}), several times cheaper per frame; a host starts with
 * the version-1 hashes, so older controllers and older hosts still compare as before.
 * Version 4 added STREAM_DIGESTS and REVISIT: a controller whose two hosts both speak version 4
 * has RUN_STREAM send representation digests (O(1) per cycle, nothing caught up) and revisits
 * each host where the other's state faults fire; a host starts with present-state digests and
 * no revisits, so older controllers see no change.
 * Version 5 added the digest kind {@link #DIGEST_CHAINED}: RUN_STREAM runs chained stretches and
 * sends one record per stretch, at the stretch's last position (the positions in between are
 * left out of the DIGESTS stream).
 * Version 6 added TRACE: a controller re-running hosts to localise a divergence has them record
 * the last instructions they run cycle by cycle and send them as text; a host records nothing
 * until asked, so older controllers see no change.
 */
public final class HostProtocol {
    public static final byte[] MAGIC = {'L', 'S', 'N', 'E', 'S', 'H', 'S', 'T'};
    public static final int VERSION = 8;
    /** The oldest host version a controller still drives (the canary uses only version-1 requests). */
    public static final int MIN_VERSION = 1;
    /** The class every build's jar starts its host with (keep it stable). */
    public static final String MAIN_CLASS = "lockstep.nes.app.EngineHostMain";
    /** Largest message accepted (a ROM or a snapshot fits many times over). */
    public static final int MAX_MESSAGE = 64 << 20;

    // Requests (controller -> host).
    public static final int LOAD_ROM = 0x01;
    public static final int LOAD_MOVIE = 0x02;
    public static final int RUN_FRAMES = 0x03;
    public static final int SNAPSHOT = 0x04;
    public static final int RESTORE = 0x05;
    public static final int RUN_TO_CYCLE = 0x06;
    public static final int DESCRIBE = 0x07;
    public static final int OBSERVE = 0x08;
    public static final int QUIT = 0x09;
    /** Version 2: arms one-shot faults (FaultSpec syntax) in the host's engine. */
    public static final int INJECT = 0x0A;
    /** Version 2: runs with per-cycle digests streamed batch by batch, checkpoints inline. */
    public static final int RUN_STREAM = 0x0B;
    /** Version 3: selects the observable hash scheme of FRAME records ({@link #HASH_FNV1A}, {@link #HASH_XXH64}). */
    public static final int HASHES = 0x0C;
    /** Version 4: selects the digests RUN_STREAM sends ({@link #DIGEST_PRESENT}, {@link #DIGEST_REPRESENTATION}). */
    public static final int STREAM_DIGESTS = 0x0D;
    /** Version 4: the cycles after which the host's engine is revisited (its partner's state faults). */
    public static final int REVISIT = 0x0E;
    /**
     * Version 6: answers the instructions recorded so far (TRACE_LINES) and records the last
     * {@code capacity} of the cycle-by-cycle runs that follow (0: records nothing).
     */
    public static final int TRACE = 0x0F;

    /** RUN_STREAM's digests by default: {@code CycleDigest.digest()}, the state at the present cycle. */
    public static final int DIGEST_PRESENT = 1;
    /** {@code CycleDigest.representation()}: each component as of its own clock, nothing caught up. */
    public static final int DIGEST_REPRESENTATION = 2;
    /**
     * Version 5: one record per stretch (to the frame's end or the request's target): the
     * lockstep chain's record ({@code EngineStretch}), sent alone at the stretch's last position.
     */
    public static final int DIGEST_CHAINED = 3;

    /** Observable hashes of versions 1 and 2 (every host's default): per-value FNV-1a, then a finaliser. */
    public static final int HASH_FNV1A = 1;
    /** Observable hashes of version 3: XXH64 (seed 0) of the values' little-endian bytes. */
    public static final int HASH_XXH64 = 2;

    /** The name of an observable hash scheme (reports). */
    public static String hashName(int scheme) {
        return switch (scheme) {
            case HASH_FNV1A -> "fnv1a-64";
            case HASH_XXH64 -> "xxh64";
            default -> "scheme " + scheme;
        };
    }

    // Responses (host -> controller).
    public static final int HELLO = 0x40;
    public static final int OK = 0x41;
    public static final int FRAME = 0x42;
    public static final int RUN_END = 0x43;
    public static final int SNAPSHOT_DATA = 0x44;
    public static final int DIGESTS = 0x45;
    public static final int DESCRIPTION = 0x46;
    public static final int OBSERVATION = 0x47;
    public static final int BYE = 0x48;
    /** Version 2: an injected fault fired (sent inside RUN_STREAM / RUN_TO_CYCLE answers). */
    public static final int FAULT_FIRED = 0x49;
    /** Version 6: the instructions a host recorded, oldest first, in nestest's log form. */
    public static final int TRACE_LINES = 0x4A;
    /** The first version whose hosts answer TRACE. */
    public static final int TRACE_VERSION = 6;
    /** The first version whose hosts take cheats with LOAD_ROM and report the ones they run with. */
    public static final int CHEATS_VERSION = 7;
    /** The first version whose hosts take a disk image's BIOS and starting side with LOAD_ROM. */
    public static final int DISK_VERSION = 8;
    public static final int ERROR = 0x7F;

    private HostProtocol() {
    }

    /**
     * The cheats of LOAD_ROM's {@code cheats} field and of its answer: codes separated by commas
     * (empty: none), each as {@link Cheat#parse} reads it.
     */
    public static List<Cheat> parseCheats(String codes) throws CheatException {
        final List<Cheat> out = new ArrayList<>();
        if (codes.isEmpty()) {
            return out;
        }
        for (String code : codes.split(",", -1)) {
            out.add(Cheat.parse(code));
        }
        if (out.size() > Cheats.MAX) {
            throw new CheatException("cheats '" + codes + "': at most " + Cheats.MAX + " codes, not " + out.size());
        }
        return out;
    }

    /** {@code cheats} as LOAD_ROM's field: their raw forms ({@link Cheat#raw}), separated by commas. */
    public static String cheatCodes(List<Cheat> cheats) {
        final StringBuilder b = new StringBuilder();
        for (Cheat c : cheats) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(c.raw());
        }
        return b.toString();
    }

    public static String typeName(int type) {
        return switch (type) {
            case LOAD_ROM -> "LOAD_ROM";
            case LOAD_MOVIE -> "LOAD_MOVIE";
            case RUN_FRAMES -> "RUN_FRAMES";
            case SNAPSHOT -> "SNAPSHOT";
            case RESTORE -> "RESTORE";
            case RUN_TO_CYCLE -> "RUN_TO_CYCLE";
            case DESCRIBE -> "DESCRIBE";
            case OBSERVE -> "OBSERVE";
            case QUIT -> "QUIT";
            case INJECT -> "INJECT";
            case RUN_STREAM -> "RUN_STREAM";
            case HASHES -> "HASHES";
            case STREAM_DIGESTS -> "STREAM_DIGESTS";
            case REVISIT -> "REVISIT";
            case TRACE -> "TRACE";
            case HELLO -> "HELLO";
            case OK -> "OK";
            case FRAME -> "FRAME";
            case RUN_END -> "RUN_END";
            case SNAPSHOT_DATA -> "SNAPSHOT_DATA";
            case DIGESTS -> "DIGESTS";
            case DESCRIPTION -> "DESCRIPTION";
            case OBSERVATION -> "OBSERVATION";
            case BYE -> "BYE";
            case FAULT_FIRED -> "FAULT_FIRED";
            case TRACE_LINES -> "TRACE_LINES";
            case ERROR -> "ERROR";
            default -> String.format("0x%02X", type);
        };
    }

    // ---- 64-bit content hashes of frame observables (part of the protocol: both builds must agree).
    // These are the version-1 hashes (HASH_FNV1A); version 3's are Xxh64 over the same values.

    private static final long FNV_OFFSET = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    /** Start value of an observable hash. */
    public static long hashStart() {
        return FNV_OFFSET;
    }

    /** Adds one value (a pixel's 9-bit value, a RAM byte, an audio sample as unsigned 16 bits). */
    public static long hashAdd(long h, int value) {
        return (h ^ value) * FNV_PRIME;
    }

    /** Final value: mixes in the count, then a 64-bit finaliser. */
    public static long hashEnd(long h, int count) {
        long z = h ^ count;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    public static long hashPixels(short[] pixels) {
        long h = hashStart();
        for (short p : pixels) {
            h = hashAdd(h, p & 0xFFFF);
        }
        return hashEnd(h, pixels.length);
    }

    public static long hashBytes(byte[] bytes) {
        long h = hashStart();
        for (byte b : bytes) {
            h = hashAdd(h, b & 0xFF);
        }
        return hashEnd(h, bytes.length);
    }

    public static long hashSamples(short[] samples, int count) {
        long h = hashStart();
        for (int i = 0; i < count; i++) {
            h = hashAdd(h, samples[i] & 0xFFFF);
        }
        return hashEnd(h, count);
    }

    // ---- Messages.

    /** Builds one message; {@link #writeTo} frames it. Reusable after {@link #reset}. */
    public static final class Message {
        private final Buf buf = new Buf();
        private int type;

        public Message(int type) {
            this.type = type;
        }

        public Message reset(int type) {
            this.type = type;
            buf.reset();
            return this;
        }

        public int type() {
            return type;
        }

        public Message u8(int v) {
            buf.write(v);
            return this;
        }

        public Message u16(int v) {
            buf.write(v >>> 8);
            buf.write(v);
            return this;
        }

        public Message i32(int v) {
            buf.write(v >>> 24);
            buf.write(v >>> 16);
            buf.write(v >>> 8);
            buf.write(v);
            return this;
        }

        public Message i64(long v) {
            i32((int) (v >>> 32));
            return i32((int) v);
        }

        public Message raw(byte[] b, int off, int len) {
            buf.write(b, off, len);
            return this;
        }

        public Message bytes(byte[] b) {
            return bytes(b, 0, b.length);
        }

        public Message bytes(byte[] b, int off, int len) {
            i32(len);
            return raw(b, off, len);
        }

        public Message str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > 0xFFFF) {
                b = java.util.Arrays.copyOf(b, 0xFFFF);
            }
            u16(b.length);
            return raw(b, 0, b.length);
        }

        /** Writes {@code u32 length, u8 type, payload} (does not flush). */
        public void writeTo(OutputStream out) throws IOException {
            int len = buf.size() + 1;
            out.write(len >>> 24);
            out.write(len >>> 16);
            out.write(len >>> 8);
            out.write(len);
            out.write(type);
            out.write(buf.array(), 0, buf.size());
        }
    }

    private static final class Buf extends ByteArrayOutputStream {
        Buf() {
            super(256);
        }

        byte[] array() {
            return buf;
        }
    }

    /** One received message: its type and a cursor over its payload. */
    public static final class Payload {
        private final int type;
        private final byte[] data;
        private int pos;

        public Payload(int type, byte[] data) {
            this.type = type;
            this.data = data;
        }

        public int type() {
            return type;
        }

        public int remaining() {
            return data.length - pos;
        }

        private void need(int n) throws IOException {
            if (pos + n > data.length) {
                throw new IOException(typeName(type) + " message truncated (" + data.length + " bytes, needed "
                        + (pos + n) + ")");
            }
        }

        public int u8() throws IOException {
            need(1);
            return data[pos++] & 0xFF;
        }

        public int u16() throws IOException {
            need(2);
            int v = ((data[pos] & 0xFF) << 8) | (data[pos + 1] & 0xFF);
            pos += 2;
            return v;
        }

        public int i32() throws IOException {
            need(4);
            int v = ((data[pos] & 0xFF) << 24) | ((data[pos + 1] & 0xFF) << 16) | ((data[pos + 2] & 0xFF) << 8)
                    | (data[pos + 3] & 0xFF);
            pos += 4;
            return v;
        }

        public long i64() throws IOException {
            long hi = i32();
            return (hi << 32) | (i32() & 0xFFFFFFFFL);
        }

        public byte[] raw(int n) throws IOException {
            need(n);
            byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
            pos += n;
            return b;
        }

        public byte[] bytes() throws IOException {
            int n = i32();
            if (n < 0) {
                throw new IOException("negative byte-string length in " + typeName(type));
            }
            return raw(n);
        }

        public String str() throws IOException {
            return new String(raw(u16()), StandardCharsets.UTF_8);
        }
    }

    /**
     * Reads one message, or returns null at a clean end of stream (before a length prefix).
     *
     * @throws IOException on a truncated or oversized message
     */
    public static Payload read(DataInputStream in) throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            return null;
        }
        int len;
        try {
            len = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        } catch (EOFException e) {
            throw new IOException("stream ended inside a length prefix");
        }
        if (len < 1 || len > MAX_MESSAGE) {
            throw new IOException("bad message length " + (len & 0xFFFFFFFFL) + " (not this protocol?)");
        }
        int type = in.readUnsignedByte();
        byte[] data = new byte[len - 1];
        try {
            in.readFully(data);
        } catch (EOFException e) {
            throw new IOException("stream ended inside a " + typeName(type) + " message");
        }
        return new Payload(type, data);
    }
}
