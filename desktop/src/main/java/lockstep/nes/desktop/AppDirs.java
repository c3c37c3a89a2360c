package lockstep.nes.desktop;

import java.nio.file.Path;
import java.util.Map;

import lockstep.nes.core.UserDirs;
import lockstep.nes.core.cart.BatterySave;

/**
 * Where the app keeps its files: the key config in the user's config folder
 * ({@code $XDG_CONFIG_HOME/lockstep}, default {@code ~/.config/lockstep}); screenshots and
 * movies in the data folder beside the battery saves ({@code $XDG_DATA_HOME/lockstep-nes},
 * default {@code ~/.local/share/lockstep-nes}).
 */
public record AppDirs(Path config, Path data) {

    /** The folders for this user (from the environment). */
    public static AppDirs forUser() {
        return of(System.getenv(), System.getProperty("user.home"));
    }

    static AppDirs of(Map<String, String> env, String home) {
        return new AppDirs(configDir(env, home), dataDir(env, home));
    }

    /** The folder {@link BatterySave#defaultDataDir()} keeps its saves/ in. */
    static Path dataDir(Map<String, String> env, String home) {
        return UserDirs.data(env, home);
    }

    static Path configDir(Map<String, String> env, String home) {
        return UserDirs.config(env, home);
    }

    public Path keyConfig() {
        return config.resolve("keys.json");
    }

    /** The battery saves' fallback folder (as {@link BatterySave} uses it). */
    public Path saves() {
        return data.resolve("saves");
    }

    public Path screenshots() {
        return data.resolve("screenshots");
    }

    public Path movies() {
        return data.resolve("movies");
    }
}
