package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyConfigTest {
    @TempDir
    Path dir;

    @Test
    void defaultsBindEveryActionToItsOwnKey() {
        KeyConfig c = new KeyConfig();
        for (Action a : Action.values()) {
            assertNotEquals(Keys.NONE, c.key(a), a.name());
            assertEquals(1, c.actionsOf(c.key(a)).size(), a + " shares " + Keys.name(c.key(a)));
        }
    }

    @Test
    void aChangedConfigSurvivesSaveAndLoad() throws Exception {
        KeyConfig c = new KeyConfig();
        c.bind(Action.P1_A, Keys.code("KP_5"));
        c.bind(Action.REWIND, Keys.code("r"));
        c.bind(Action.P2_SELECT, Keys.NONE);
        Path file = dir.resolve("sub/keys.json");
        c.save(file);
        KeyConfig.Loaded back = KeyConfig.load(file);
        assertEquals(java.util.List.of(), back.warnings());
        for (Action a : Action.values()) {
            assertEquals(c.key(a), back.config().key(a), a.name());
        }
        assertEquals(c.toJson(), back.config().toJson());
        String text = Files.readString(file);
        assertTrue(text.contains("\"P1_A\" : \"KP_5\""), text);
        assertTrue(text.contains("\"REWIND\" : \"R\""), text);
        assertTrue(text.contains("\"P2_SELECT\" : \"NONE\""), text);
    }

    @Test
    void aMissingFileIsCreatedWithTheDefaults() {
        Path file = dir.resolve("lockstep/keys.json");
        KeyConfig.Loaded l = KeyConfig.load(file);
        assertTrue(l.warnings().isEmpty());
        assertTrue(Files.isRegularFile(file));
        assertEquals(new KeyConfig().toJson(), KeyConfig.load(file).config().toJson());
    }

    @Test
    void brokenJsonGivesTheDefaultsAndOneLineAndIsNotOverwritten() throws Exception {
        Path file = dir.resolve("keys.json");
        Files.writeString(file, "{ \"keys\": { \"P1_A\": \"X\", ");
        KeyConfig.Loaded l = KeyConfig.load(file);
        assertEquals(1, l.warnings().size());
        String w = l.warnings().get(0);
        assertTrue(w.startsWith(file + ": not valid JSON"), w);
        assertFalse(w.contains("\n"), w);
        assertEquals(new KeyConfig().toJson(), l.config().toJson());
        assertEquals("{ \"keys\": { \"P1_A\": \"X\", ", Files.readString(file), "left for the user to fix");
    }

    @Test
    void badEntriesAreSkippedOneByOneAndTheRestIsUsed() {
        String json = """
                { "version": 1,
                  "keys": { "P1_A": "Q", "P1_B": "NO_SUCH_KEY", "JUMP": "SPACE", "PAUSE": 7 },
                  "gamepadStickThreshold": 3 }
                """;
        KeyConfig.Loaded l = KeyConfig.parse(json, "k.json");
        assertEquals(Keys.code("Q"), l.config().key(Action.P1_A));
        assertEquals(Keys.code("Z"), l.config().key(Action.P1_B));
        assertEquals(Keys.code("P"), l.config().key(Action.PAUSE));
        assertEquals(0.5, l.config().stickThreshold());
        assertEquals(4, l.warnings().size(), l.warnings().toString());
        assertTrue(l.warnings().get(0).contains("P1_B: unknown key \"NO_SUCH_KEY\""), l.warnings().get(0));
        assertTrue(l.warnings().get(1).contains("unknown action \"JUMP\""), l.warnings().get(1));
    }

    @Test
    void notAnObjectOrWrongKeysType() {
        assertEquals(1, KeyConfig.parse("[1,2]", "k.json").warnings().size());
        assertEquals(1, KeyConfig.parse("{\"keys\": [] }", "k.json").warnings().size());
    }

    @Test
    void configFolderFollowsXdg() {
        assertEquals(Path.of("/x/cfg/lockstep"), AppDirs.configDir(Map.of("XDG_CONFIG_HOME", "/x/cfg"), "/home/u"));
        assertEquals(Path.of("/home/u/.config/lockstep"), AppDirs.configDir(Map.of(), "/home/u"));
        assertEquals(Path.of("/home/u/.config/lockstep"), AppDirs.configDir(Map.of("XDG_CONFIG_HOME", "rel"), "/home/u"));
        AppDirs d = AppDirs.of(Map.of("XDG_DATA_HOME", "/x/data"), "/home/u");
        assertEquals(Path.of("/x/data/lockstep-nes/saves"), d.saves());
        assertEquals(Path.of("/home/u/.local/share/lockstep-nes/movies"), AppDirs.of(Map.of(), "/home/u").movies());
        if (System.getenv("XDG_DATA_HOME") == null) {
            assertEquals(lockstep.nes.core.cart.BatterySave.defaultDataDir(),
                    AppDirs.of(System.getenv(), System.getProperty("user.home")).saves(), "the battery saves' folder");
        }
    }
}
