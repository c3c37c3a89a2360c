package lockstep.nes.core.snapshot;

import lockstep.nes.state.EntryTag;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import lockstep.nes.core.cart.Cartridge;

/**
 * Identifies a cartridge in snapshots: SHA-256 of its PRG data followed by its CHR data (and, for
 * a disk system, the disk image as loaded: the disk's own changes are in the snapshot).
 */
public final class RomId {
    private RomId() {
    }

    public static byte[] sha256(Cartridge cart) {
        MessageDigest md = sha256();
        md.update(cart.prg());
        md.update(cart.chr());
        if (cart.disk() != null) {
            md.update(cart.disk().bytes());
        }
        return md.digest();
    }

    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    public static String hex(byte[] bytes) {
        return lockstep.nes.state.EntryTag.hex(bytes);
    }
}
