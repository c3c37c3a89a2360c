package lockstep.nes.roms;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the folder of test ROMs: an explicit folder, else env LOCKSTEP_ROMS, else the system
 * property lockstep.roms (set by the build for tests), else ../shared/roms next to the project
 * root (found from the jar's location or the working directory).
 */
public final class RomsDir {
    public static final String ENV = "LOCKSTEP_ROMS";
    public static final String PROPERTY = "lockstep.roms";

    private RomsDir() {
    }

    /** The roms dir to use (not checked for existence), never null. */
    public static Path locate(Path explicit, Map<String, String> env, Class<?> anchor) {
        if (explicit != null) {
            return explicit;
        }
        String e = env.get(ENV);
        if (e != null && !e.isBlank()) {
            return Path.of(e);
        }
        String p = System.getProperty(PROPERTY);
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        Path root = projectRoot(anchor);
        return root.resolve("..").resolve("shared").resolve("roms").normalize();
    }

    /** The project root: above the jar or classes folder of {@code anchor}, else above the working dir. */
    static Path projectRoot(Class<?> anchor) {
        if (anchor != null) {
            try {
                Path loc = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path root = findRoot(loc);
                if (root != null) {
                    return root;
                }
            } catch (URISyntaxException | SecurityException | NullPointerException | IllegalArgumentException ignored) {
                // fall through to the working directory
            }
        }
        Path cwd = Path.of("").toAbsolutePath();
        Path root = findRoot(cwd);
        return root != null ? root : cwd;
    }

    private static Path findRoot(Path start) {
        for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
            Path pom = p.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.isDirectory(p.resolve("roms-test"))) {
                try {
                    if (Files.readString(pom).contains("<artifactId>lockstep-nes</artifactId>")) {
                        return p;
                    }
                } catch (IOException ignored) {
                    // not readable: keep looking up
                }
            }
        }
        return null;
    }
}
