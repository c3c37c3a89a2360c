package lockstep.nes.netplay;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.ppu.Region;

/**
 * What two peers must share to stay in sync: the ROM (SHA-1 of its PRG and CHR data), the console
 * region, and the engine build (the build id the canary compares: the SHA-256 of the build's jar),
 * with the state format and protocol versions it implies.
 */
public record PeerIdentity(String romSha1, Region region, String buildId) {

    /** The identity of a peer running {@code cart} on build {@code buildId}. */
    public static PeerIdentity of(Cartridge cart, String buildId) {
        byte[] data = new byte[cart.prg().length + cart.chr().length];
        System.arraycopy(cart.prg(), 0, data, 0, cart.prg().length);
        System.arraycopy(cart.chr(), 0, data, cart.prg().length, cart.chr().length);
        return new PeerIdentity(Cartridge.digest("SHA-1", data), cart.region(), buildId);
    }

    /**
     * What differs between the host's identity and the joiner's, in one line ("ROM differs (sha1
     * ... on the host, ... on the joiner); ..."), or null when they may play together.
     */
    public static String mismatch(PeerIdentity host, PeerIdentity joiner) {
        List<String> why = new ArrayList<>();
        if (!host.romSha1.equals(joiner.romSha1)) {
            why.add("ROM differs (sha1 " + host.romSha1 + " on the host, " + joiner.romSha1 + " on the joiner)");
        }
        if (host.region != joiner.region) {
            why.add("region differs (" + host.region.id() + " on the host, " + joiner.region.id() + " on the joiner)");
        }
        if (!host.buildId.equals(joiner.buildId)) {
            why.add("engine build differs (" + host.buildId + " on the host, " + joiner.buildId + " on the joiner)");
        }
        return why.isEmpty() ? null : String.join("; ", why);
    }
}
