package lockstep.nes.core.cart.fds;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Disk images built in the tests: each side a disk info block, a file amount and files. */
final class TestDisks {
    private TestDisks() {
    }

    /** A file on a side: its name (up to 8 characters), load address, kind (0 PRG, 1 CHR, 2 nametable) and data. */
    record File(String name, int address, int kind, byte[] data) {
    }

    /** The disk info block: code 1, "*NINTENDO-HVC*", then side number at byte 22 (0 = A). */
    static byte[] diskInfo(int side) {
        byte[] b = new byte[56];
        b[0] = 1;
        byte[] v = "*NINTENDO-HVC*".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(v, 0, b, 1, v.length);
        b[21] = (byte) (side >> 1);
        b[22] = (byte) (side & 1);
        return b;
    }

    /** One side's blocks, each as .fds has them (qd: with two CRC bytes after each). */
    static byte[] side(int sideNumber, List<File> files, boolean qd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        block(out, diskInfo(sideNumber), qd);
        block(out, new byte[] {2, (byte) files.size()}, qd);
        for (int i = 0; i < files.size(); i++) {
            File f = files.get(i);
            byte[] h = new byte[16];
            h[0] = 3;
            h[1] = (byte) i;
            h[2] = (byte) i;
            byte[] n = f.name().getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(n, 0, h, 3, Math.min(8, n.length));
            h[11] = (byte) f.address();
            h[12] = (byte) (f.address() >> 8);
            h[13] = (byte) f.data().length;
            h[14] = (byte) (f.data().length >> 8);
            h[15] = (byte) f.kind();
            block(out, h, qd);
            byte[] d = new byte[1 + f.data().length];
            d[0] = 4;
            System.arraycopy(f.data(), 0, d, 1, f.data().length);
            block(out, d, qd);
        }
        byte[] used = out.toByteArray();
        byte[] side = new byte[qd ? DiskImage.QD_SIDE : DiskImage.FDS_SIDE];
        System.arraycopy(used, 0, side, 0, used.length);
        return side;
    }

    private static void block(ByteArrayOutputStream out, byte[] b, boolean qd) {
        out.writeBytes(b);
        if (qd) {
            int crc = DiskLayout.crc(b, 0, b.length);
            out.write(crc);
            out.write(crc >> 8);
        }
    }

    /** An .fds image of {@code sides}, with the fwNES header or without. */
    static byte[] fds(boolean header, byte[]... sides) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (header) {
            byte[] h = new byte[16];
            h[0] = 'F';
            h[1] = 'D';
            h[2] = 'S';
            h[3] = 0x1A;
            h[4] = (byte) sides.length;
            out.writeBytes(h);
        }
        for (byte[] s : sides) {
            out.writeBytes(s);
        }
        return out.toByteArray();
    }
}
