package lockstep.nes.verifier.host;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import lockstep.nes.core.snapshot.RomId;

/**
 * What identifies a build to its peers (an engine host's HELLO, a netplay handshake): the
 * SHA-256 of the jar the classes were loaded from, so two jars of one version that differ in
 * any byte are told apart.
 */
public final class BuildId {
    private BuildId() {
    }

    /** "sha256:<hex of this build's jar>" (or the classes directory) plus the version. */
    public static String of(String version) {
        String where = "unknown";
        try {
            CodeSource cs = BuildId.class.getProtectionDomain().getCodeSource();
            if (cs != null && cs.getLocation() != null) {
                Path p = Path.of(cs.getLocation().toURI());
                if (Files.isRegularFile(p)) {
                    MessageDigest md = RomId.sha256();
                    try (InputStream s = Files.newInputStream(p)) {
                        byte[] b = new byte[1 << 16];
                        int n;
                        while ((n = s.read(b)) > 0) {
                            md.update(b, 0, n);
                        }
                    }
                    where = "sha256:" + RomId.hex(md.digest());
                } else {
                    where = "classes:" + p;
                }
            }
        } catch (IOException | URISyntaxException | SecurityException e) {
            where = "unknown (" + e.getMessage() + ")";
        }
        return version + " " + where;
    }
}
