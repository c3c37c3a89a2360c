package lockstep.nes.core;

import java.nio.file.Path;
import java.util.Map;

/**
 * The user's data folder, where every file the project writes without being given a path goes
 * (battery saves, pictures of failed test ROMs, dead letters, screenshots): never the working
 * directory. {@code $XDG_DATA_HOME/lockstep-nes}, default {@code ~/.local/share/lockstep-nes}
 * (the XDG base directory rule: a relative XDG_DATA_HOME is ignored).
 */
public final class UserDirs {
    private UserDirs() {
    }

    /** The data folder of this user (from the environment). */
    public static Path data() {
        return data(System.getenv(), System.getProperty("user.home"));
    }

    public static Path data(Map<String, String> env, String home) {
        return base(env.get("XDG_DATA_HOME"), home, ".local", "share").resolve("lockstep-nes");
    }

    /** {@code $XDG_CONFIG_HOME/lockstep}, default {@code ~/.config/lockstep}. */
    public static Path config(Map<String, String> env, String home) {
        return base(env.get("XDG_CONFIG_HOME"), home, ".config").resolve("lockstep");
    }

    private static Path base(String xdg, String home, String... fallback) {
        return xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : Path.of(home, fallback);
    }
}
