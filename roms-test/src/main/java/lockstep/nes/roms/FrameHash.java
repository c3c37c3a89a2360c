package lockstep.nes.roms;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hash of a picture: SHA-256 of the 256x240 9-bit values (palette index | emphasis << 6),
 * each as two little-endian bytes in raster order, shortened to its first 16 hex digits.
 * It depends only on what the PPU output, not on the RGB palette used to show it.
 */
public final class FrameHash {
    private FrameHash() {
    }

    public static String of(short[] picture) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] bytes = new byte[picture.length * 2];
        for (int i = 0; i < picture.length; i++) {
            int v = picture[i] & 0x1FF;
            bytes[2 * i] = (byte) v;
            bytes[2 * i + 1] = (byte) (v >> 8);
        }
        byte[] d = sha.digest(bytes);
        StringBuilder sb = new StringBuilder(16);
        for (int i = 0; i < 8; i++) {
            sb.append(Character.forDigit((d[i] >> 4) & 0xF, 16)).append(Character.forDigit(d[i] & 0xF, 16));
        }
        return sb.toString();
    }
}
