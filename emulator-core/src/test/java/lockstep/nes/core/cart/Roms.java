package lockstep.nes.core.cart;

import java.io.ByteArrayOutputStream;

/**
 * Builds iNES / NES 2.0 images for tests. PRG: every byte of 8 KiB bank b is b, except the last
 * 16 bytes of each bank, which are $FF (so writes there see no bus conflict). CHR: every byte of
 * 1 KiB bank k is k & $FF.
 */
public final class Roms {
    private Roms() {
    }

    public static byte[] prg(int kib) {
        byte[] p = new byte[kib * 1024];
        for (int i = 0; i < p.length; i++) {
            p[i] = (byte) ((i & 0x1FFF) >= 0x1FF0 ? 0xFF : i >> 13);
        }
        return p;
    }

    public static byte[] chr(int kib) {
        byte[] c = new byte[kib * 1024];
        for (int i = 0; i < c.length; i++) {
            c[i] = (byte) (i >> 10);
        }
        return c;
    }

    /** An iNES 1 header. */
    public static byte[] header(int prg16, int chr8, int mapper, int flags6Low) {
        return new byte[] {'N', 'E', 'S', 0x1A, (byte) prg16, (byte) chr8,
                (byte) ((mapper & 0x0F) << 4 | flags6Low), (byte) (mapper & 0xF0), 0, 0, 0, 0, 0, 0, 0, 0};
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A whole iNES image with test PRG/CHR contents. */
    public static byte[] ines(int mapper, int prgKib, int chrKib, int flags6Low) {
        return concat(header(prgKib / 16, chrKib / 8, mapper, flags6Low), prg(prgKib), chr(chrKib));
    }

    /** A cartridge with test contents, built through the builder. */
    public static Cartridge cart(int mapper, int prgKib, int chrKib) {
        return Cartridge.builder("test.nes", prg(prgKib), chr(chrKib), mapper).build();
    }

    public static Mapper mapper(Cartridge cart) {
        try {
            Mapper m = cart.createMapper();
            m.power();
            return m;
        } catch (RomFormatException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The 8 KiB PRG bank mapped at {@code addr}. */
    public static int prgBank(Mapper m, int addr) {
        return m.cpuRead(addr & 0xE000);
    }

    /** The 1 KiB CHR bank mapped at PPU {@code addr}. */
    public static int chrBank(Mapper m, int addr) {
        return m.ppuRead(addr & 0x1C00);
    }

    /** The CIRAM page of each nametable, e.g. "0101" for vertical mirroring. */
    public static String nametables(Mapper m) {
        for (int p = 0; p < m.ciram.size() / 0x400; p++) {
            m.ciram.write(p * 0x400 + 0x123, 0);
        }
        for (int t = 0; t < 4; t++) {
            m.ppuWrite(0x2000 + t * 0x400 + 0x123, 0x10 + t);
        }
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < 4; t++) {
            int v = m.ppuRead(0x2000 + t * 0x400 + 0x123);
            int page = -1;
            for (int p = 0; p < m.ciram.size() / 0x400; p++) {
                if (m.ciram.read(p * 0x400 + 0x123) == v) {
                    page = p;
                }
            }
            sb.append(page);
        }
        return sb.toString();
    }
}
