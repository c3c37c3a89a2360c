package lockstep.nes.desktop.cheats;

import static org.lwjgl.glfw.GLFW.GLFW_KEY_BACKSPACE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_DOWN;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_ENTER;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_ESCAPE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_KP_ENTER;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_UP;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_WORLD_1;

import java.util.List;

/**
 * The window's keyboard for the cheat panel ({@link CheatMenu}): the key that opens it, the keys
 * it takes while open (GLFW key codes) and the characters typed into it. While open it takes
 * every key press, so no game button or hotkey acts. The opening key, when it is a printable
 * one, also sends its character, which is not part of a code and is dropped.
 */
public final class CheatKeys {
    private final CheatMenu menu = new CheatMenu();
    /** The character of the key that opened the panel, not to be typed into it. */
    private boolean swallowChar;

    public boolean isOpen() {
        return menu.isOpen();
    }

    /**
     * The cheats key, {@code openingKey} being its GLFW key code, over {@code target} (the game;
     * null: none). Returns the message to show when there is no game, else null.
     */
    public String open(CheatMenu.Target target, int openingKey) {
        if (target == null) {
            return "no game is running";
        }
        menu.open();
        swallowChar = openingKey < GLFW_KEY_WORLD_1;
        return null;
    }

    /**
     * A key pressed (GLFW key code) with {@code target} the game (null: none). True when the
     * panel took it; with no game the panel closes and the key goes on as usual.
     */
    public boolean press(int key, CheatMenu.Target target) {
        if (!menu.isOpen()) {
            return false;
        }
        if (target == null) {
            menu.close();
            return false;
        }
        final CheatMenu.Key k = switch (key) {
            case GLFW_KEY_UP -> CheatMenu.Key.UP;
            case GLFW_KEY_DOWN -> CheatMenu.Key.DOWN;
            case GLFW_KEY_ENTER, GLFW_KEY_KP_ENTER -> CheatMenu.Key.ENTER;
            case GLFW_KEY_BACKSPACE -> CheatMenu.Key.BACKSPACE;
            case GLFW_KEY_ESCAPE -> CheatMenu.Key.ESCAPE;
            default -> null;
        };
        if (k != null) {
            menu.key(k, target); // the target posts what it did
        }
        return true;
    }

    /** A character typed (its code point) with {@code target} the game (null: none). */
    public void typed(int codePoint, CheatMenu.Target target) {
        if (swallowChar) {
            swallowChar = false;
            return;
        }
        if (menu.isOpen() && target != null) {
            menu.typed(codePoint, target); // the target posts what it did
        }
    }

    /** The panel's lines over {@code list}. */
    public List<String> lines(CheatList list) {
        return menu.lines(list);
    }

    /** The code being typed. */
    public String input() {
        return menu.input();
    }
}
