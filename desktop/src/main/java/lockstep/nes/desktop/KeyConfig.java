package lockstep.nes.desktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import lockstep.nes.core.AtomicFile;

/**
 * Which key does what, saved as JSON in the user's config folder:
 * <pre>
 * { "version": 1,
 *   "keys": { "P1_A": "X", "P1_B": "Z", ..., "PAUSE": "P", ... },
 *   "gamepadStickThreshold": 0.5 }
 * </pre>
 * Key names are GLFW's without the prefix ("ENTER", "LEFT_SHIFT", "F5", "KP_0"), or "NONE".
 * A file that cannot be used is never overwritten: the defaults are used for what is wrong,
 * and each problem becomes one warning line naming the file.
 */
public final class KeyConfig {
    public static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final EnumMap<Action, Integer> keys = new EnumMap<>(Action.class);
    private double stickThreshold = 0.5;

    /** The default bindings. */
    public KeyConfig() {
        for (Action a : Action.values()) {
            keys.put(a, Keys.code(a.defaultKey()));
        }
    }

    /** The result of reading a config file: the bindings and what was wrong with the file. */
    public record Loaded(KeyConfig config, List<String> warnings) {
    }

    public int key(Action a) {
        return keys.get(a);
    }

    public void bind(Action a, int key) {
        keys.put(a, key);
    }

    /** Left-stick deflection (0..1) that counts as a d-pad press. */
    public double stickThreshold() {
        return stickThreshold;
    }

    /** The actions bound to {@code key}, in declaration order. */
    public List<Action> actionsOf(int key) {
        List<Action> out = new ArrayList<>();
        for (Map.Entry<Action, Integer> e : keys.entrySet()) {
            if (e.getValue() == key && key != Keys.NONE) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        ObjectNode k = root.putObject("keys");
        for (Map.Entry<Action, Integer> e : keys.entrySet()) {
            k.put(e.getKey().name(), Keys.name(e.getValue()));
        }
        root.put("gamepadStickThreshold", stickThreshold);
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses {@code text}; problems become warnings prefixed with {@code source}. */
    public static Loaded parse(String text, String source) {
        KeyConfig c = new KeyConfig();
        List<String> warnings = new ArrayList<>();
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            String why = e.getOriginalMessage();
            warnings.add(source + ": not valid JSON (" + why + " at line " + e.getLocation().getLineNr()
                    + "); using the default keys");
            return new Loaded(c, warnings);
        }
        if (root == null || !root.isObject()) {
            warnings.add(source + ": expected a JSON object; using the default keys");
            return new Loaded(c, warnings);
        }
        JsonNode version = root.get("version");
        if (version != null && (!version.canConvertToInt() || version.asInt() != VERSION)) {
            warnings.add(source + ": version " + version + " is not " + VERSION + "; reading what it can");
        }
        JsonNode keys = root.get("keys");
        if (keys != null && !keys.isObject()) {
            warnings.add(source + ": \"keys\" must be an object; using the default keys");
        } else if (keys != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = keys.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Action action;
                try {
                    action = Action.valueOf(e.getKey());
                } catch (IllegalArgumentException ex) {
                    warnings.add(source + ": unknown action \"" + e.getKey() + "\" (ignored)");
                    continue;
                }
                Integer code = e.getValue().isTextual() ? Keys.code(e.getValue().asText()) : null;
                if (code == null) {
                    warnings.add(source + ": " + e.getKey() + ": unknown key " + e.getValue()
                            + " (keeping " + action.defaultKey() + ")");
                    continue;
                }
                c.keys.put(action, code);
            }
        }
        JsonNode t = root.get("gamepadStickThreshold");
        if (t != null) {
            if (t.isNumber() && t.asDouble() > 0 && t.asDouble() < 1) {
                c.stickThreshold = t.asDouble();
            } else {
                warnings.add(source + ": gamepadStickThreshold must be a number between 0 and 1, not " + t
                        + " (keeping 0.5)");
            }
        }
        return new Loaded(c, warnings);
    }

    /**
     * Reads the config at {@code file}. A missing file is created with the defaults (so the user
     * has something to edit); a bad one is left as it is.
     */
    public static Loaded load(Path file) {
        if (!Files.exists(file)) {
            KeyConfig c = new KeyConfig();
            List<String> warnings = new ArrayList<>();
            try {
                c.save(file);
            } catch (IOException e) {
                warnings.add(file + ": cannot write the default key config (" + e.getMessage() + ")");
            }
            return new Loaded(c, warnings);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new Loaded(new KeyConfig(), List.of(file + ": cannot read (" + e.getMessage()
                    + "); using the default keys"));
        }
        return parse(text, file.toString());
    }

    /** Writes atomically (temporary file, then rename), creating the folder. */
    public void save(Path file) throws IOException {
        AtomicFile.writeCreatingFolder(file, toJson().getBytes(StandardCharsets.UTF_8));
    }
}
