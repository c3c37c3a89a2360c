package lockstep.nes.core.demo;

/** Writes iNES 1.0 images for mapper 0 (NROM). */
public final class Ines {
    private Ines() {
    }

    /**
     * An NROM image: 16 KiB (NROM-128) or 32 KiB (NROM-256) of PRG-ROM and 8 KiB of CHR-ROM.
     *
     * @param vertical true for vertical mirroring (horizontal arrangement, for side scrolling),
     *                 false for horizontal mirroring
     */
    public static byte[] nrom(byte[] prg, byte[] chr, boolean vertical) {
        if (prg.length != 0x4000 && prg.length != 0x8000) {
            throw new IllegalArgumentException("NROM PRG-ROM must be 16 or 32 KiB, not " + prg.length);
        }
        if (chr.length != 0x2000) {
            throw new IllegalArgumentException("NROM CHR-ROM must be 8 KiB, not " + chr.length);
        }
        byte[] image = new byte[16 + prg.length + chr.length];
        image[0] = 'N';
        image[1] = 'E';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = (byte) (prg.length / 0x4000);   // PRG-ROM in 16 KiB units
        image[5] = 1;                              // CHR-ROM in 8 KiB units
        image[6] = (byte) (vertical ? 1 : 0);      // mapper 0 low nibble, mirroring bit
        image[7] = 0;                              // mapper 0 high nibble, iNES 1.0
        System.arraycopy(prg, 0, image, 16, prg.length);
        System.arraycopy(chr, 0, image, 16 + prg.length, chr.length);
        return image;
    }
}
