package lockstep.nes.desktop;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names of keyboard keys (as written in the key config) and their GLFW key codes. The codes are
 * GLFW's (US layout positions), copied as numbers so the config can be read and written without
 * loading the native library.
 */
final class Keys {
    /** No key bound. */
    static final int NONE = -1;

    private static final Map<String, Integer> BY_NAME = new TreeMap<>();
    private static final Map<Integer, String> BY_CODE = new TreeMap<>();

    static {
        for (char c = 'A'; c <= 'Z'; c++) {
            put(String.valueOf(c), c);
        }
        for (char c = '0'; c <= '9'; c++) {
            put(String.valueOf(c), c);
        }
        for (int i = 1; i <= 25; i++) {
            put("F" + i, 289 + i);
        }
        for (int i = 0; i <= 9; i++) {
            put("KP_" + i, 320 + i);
        }
        put("SPACE", 32);
        put("APOSTROPHE", 39);
        put("COMMA", 44);
        put("MINUS", 45);
        put("PERIOD", 46);
        put("SLASH", 47);
        put("SEMICOLON", 59);
        put("EQUAL", 61);
        put("LEFT_BRACKET", 91);
        put("BACKSLASH", 92);
        put("RIGHT_BRACKET", 93);
        put("GRAVE_ACCENT", 96);
        put("ESCAPE", 256);
        put("ENTER", 257);
        put("TAB", 258);
        put("BACKSPACE", 259);
        put("INSERT", 260);
        put("DELETE", 261);
        put("RIGHT", 262);
        put("LEFT", 263);
        put("DOWN", 264);
        put("UP", 265);
        put("PAGE_UP", 266);
        put("PAGE_DOWN", 267);
        put("HOME", 268);
        put("END", 269);
        put("CAPS_LOCK", 280);
        put("SCROLL_LOCK", 281);
        put("NUM_LOCK", 282);
        put("PRINT_SCREEN", 283);
        put("PAUSE", 284);
        put("KP_DECIMAL", 330);
        put("KP_DIVIDE", 331);
        put("KP_MULTIPLY", 332);
        put("KP_SUBTRACT", 333);
        put("KP_ADD", 334);
        put("KP_ENTER", 335);
        put("KP_EQUAL", 336);
        put("LEFT_SHIFT", 340);
        put("LEFT_CONTROL", 341);
        put("LEFT_ALT", 342);
        put("LEFT_SUPER", 343);
        put("RIGHT_SHIFT", 344);
        put("RIGHT_CONTROL", 345);
        put("RIGHT_ALT", 346);
        put("RIGHT_SUPER", 347);
        put("MENU", 348);
    }

    private Keys() {
    }

    private static void put(String name, int code) {
        BY_NAME.put(name, code);
        BY_CODE.put(code, name);
    }

    /** The code of a key name (case-insensitive; "NONE" is no key), or null if unknown. */
    static Integer code(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace(' ', '_');
        if (n.equals("NONE")) {
            return NONE;
        }
        return BY_NAME.get(n);
    }

    /** The name of a key code ("NONE" for {@link #NONE}). */
    static String name(int code) {
        if (code == NONE) {
            return "NONE";
        }
        String n = BY_CODE.get(code);
        return n != null ? n : "KEY_" + code;
    }

    /** Highest code + 1 (the size of a key-state table). */
    static final int LIMIT = 349;
}
