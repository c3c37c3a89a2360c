package lockstep.nes.netplay;

import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * A snapshot exchanged over datagrams: the sender repeats every chunk not yet acknowledged each
 * {@link #RESEND_NANOS} until the receiver acknowledges the whole; the receiver assembles the
 * chunks by offset, in any order, each counted once.
 */
final class Transfer {
    static final long RESEND_NANOS = 40_000_000L;

    /** One side's outgoing transfer. */
    static final class Out {
        final int id;
        final byte[] data;
        boolean acked;
        private boolean sent;
        private long lastSent;

        Out(int id, byte[] data) {
            this.id = id;
            this.data = data;
        }

        /** True when it is time to send the chunks again. */
        boolean due(long now) {
            if (acked || (sent && now - lastSent < RESEND_NANOS)) {
                return false;
            }
            sent = true;
            lastSent = now;
            return true;
        }

        int chunks() {
            return (data.length + Wire.CHUNK_BYTES - 1) / Wire.CHUNK_BYTES;
        }

        /** Writes chunk {@code i}'s body (after the header). */
        void chunk(ByteBuffer b, int i) {
            int off = i * Wire.CHUNK_BYTES;
            int n = Math.min(Wire.CHUNK_BYTES, data.length - off);
            b.putInt(id).putInt(data.length).putInt(off).putShort((short) n).put(data, off, n);
        }
    }

    /** One side's incoming transfer. */
    static final class In {
        final int id;
        private byte[] data;
        private BitSet have;
        private int count;

        In(int id) {
            this.id = id;
        }

        /** Takes a chunk's body (after the header); false when it is another transfer's. */
        boolean take(ByteBuffer b) {
            Wire.need(b, 14);
            int tid = b.getInt();
            int total = b.getInt();
            int off = b.getInt();
            int n = b.getShort() & 0xFFFF;
            if (tid != id || total <= 0 || total > (64 << 20) || off < 0 || off % Wire.CHUNK_BYTES != 0
                    || n > Wire.CHUNK_BYTES || off + n > total || (data != null && data.length != total)) {
                return false;
            }
            Wire.need(b, n);
            if (data == null) {
                data = new byte[total];
                have = new BitSet();
            }
            int index = off / Wire.CHUNK_BYTES;
            if (n != Math.min(Wire.CHUNK_BYTES, total - off)) {
                return false;
            }
            if (!have.get(index)) {
                b.get(data, off, n);
                have.set(index);
                count++;
            }
            return true;
        }

        boolean complete() {
            return data != null && count == (data.length + Wire.CHUNK_BYTES - 1) / Wire.CHUNK_BYTES;
        }

        byte[] data() {
            return data;
        }
    }
}
