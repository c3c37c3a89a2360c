package lockstep.nes.core.cart.fds;

import java.util.List;

/**
 * A disk side as the head meets it, one byte per byte time (NESdev "FDS disk format"): a lead-in
 * gap of zeros, then each block as a gap-end mark (the single 1 bit that ends a gap: $80, the
 * bits going out least significant first), the block, its CRC (low byte first), and a gap of
 * zeros before the next. The side's stream has a fixed length ({@link #SIDE_BYTES}), the rest
 * zeros, so a game may write past the blocks the image had.
 *
 * <p>Gaps: the lead-in is about 28,300 bits (3,537 bytes), a gap between blocks about 976 bits
 * (122 bytes), NESdev's nominal figures. The CRC is the 2C33's: x^16 + x^12 + x^5 + 1, bits in
 * least significant first, started at $8000; run over a block and its CRC it ends at 0.
 */
public final class DiskLayout {
    private DiskLayout() {
    }

    /** Zero bytes before the first block. */
    public static final int LEAD_IN = 28300 / 8;
    /** Zero bytes after each block. */
    public static final int GAP = 976 / 8;
    /** The gap-end mark as read: the first 1 bit after the zeros. */
    public static final int MARK = 0x80;
    /** The length of a side's stream: a whole .qd side (blocks and CRCs) plus the gaps' room. */
    public static final int SIDE_BYTES = 0x14000;

    /** Lays {@code blocks} out as a side's stream of {@link #SIDE_BYTES}; false when they do not fit. */
    public static boolean layOut(List<byte[]> blocks, byte[] out, int offset) {
        int at = offset + LEAD_IN;
        final int end = offset + SIDE_BYTES;
        for (byte[] b : blocks) {
            if (at + 1 + b.length + 2 + GAP > end) {
                return false;
            }
            out[at++] = (byte) MARK;
            System.arraycopy(b, 0, out, at, b.length);
            at += b.length;
            final int crc = crc(b, 0, b.length);
            out[at++] = (byte) crc;
            out[at++] = (byte) (crc >> 8);
            at += GAP;
        }
        return true;
    }

    /** The CRC of {@code length} bytes from {@code offset}. */
    public static int crc(byte[] data, int offset, int length) {
        int crc = CRC_START;
        for (int i = 0; i < length; i++) {
            crc = crcStep(crc, data[offset + i] & 0xFF);
        }
        return crc;
    }

    /** The CRC's start value. */
    public static final int CRC_START = 0x8000;

    /** One byte into the CRC, least significant bit first. */
    public static int crcStep(int crc, int value) {
        for (int bit = 0; bit < 8; bit++) {
            crc ^= (value >> bit) & 1;
            crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
        }
        return crc;
    }
}
