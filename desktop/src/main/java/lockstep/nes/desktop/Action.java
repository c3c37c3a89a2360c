package lockstep.nes.desktop;

import lockstep.nes.core.input.Controllers;

/**
 * Everything a key can do: the buttons of the two controllers, and the hotkeys. Each has a
 * default key; the user's key config may rebind any of them.
 */
public enum Action {
    P1_A("X", 0, Controllers.A),
    P1_B("Z", 0, Controllers.B),
    P1_SELECT("RIGHT_SHIFT", 0, Controllers.SELECT),
    P1_START("ENTER", 0, Controllers.START),
    P1_UP("UP", 0, Controllers.UP),
    P1_DOWN("DOWN", 0, Controllers.DOWN),
    P1_LEFT("LEFT", 0, Controllers.LEFT),
    P1_RIGHT("RIGHT", 0, Controllers.RIGHT),
    P2_A("M", 1, Controllers.A),
    P2_B("N", 1, Controllers.B),
    P2_SELECT("U", 1, Controllers.SELECT),
    P2_START("O", 1, Controllers.START),
    P2_UP("I", 1, Controllers.UP),
    P2_DOWN("K", 1, Controllers.DOWN),
    P2_LEFT("J", 1, Controllers.LEFT),
    P2_RIGHT("L", 1, Controllers.RIGHT),

    PAUSE("P"),
    RESET("F2"),
    POWER_CYCLE("F3"),
    SAVE_STATE("F5"),
    LOAD_STATE("F7"),
    SLOT_1("1"),
    SLOT_2("2"),
    SLOT_3("3"),
    SLOT_4("4"),
    SLOT_5("5"),
    SLOT_6("6"),
    SLOT_7("7"),
    SLOT_8("8"),
    SLOT_9("9"),
    /** Held: runs backwards through the rewind buffer. */
    REWIND("BACKSPACE"),
    /** Held: runs frames as fast as the engine can, without sound. */
    FAST_FORWARD("TAB"),
    SCREENSHOT("F12"),
    RECORD_MOVIE("F9"),
    /** Starts recording a movie from the present state (the movie carries it), or stops one. */
    RECORD_MOVIE_FROM_STATE("F8"),
    LOCKSTEP("F10"),
    ASPECT("F11"),
    SCALE_UP("EQUAL"),
    SCALE_DOWN("MINUS"),
    OPEN_ROM("F6"),
    HELP("F1"),
    /** Opens or closes the debugger's window. */
    DEBUGGER("F4"),
    /** A disk system's disk: out of the drive, or the next side in. */
    DISK_SIDE("D"),
    CHEATS("C"),
    NEXT_TRACK("PAGE_DOWN"),
    PREVIOUS_TRACK("PAGE_UP"),
    QUIT("ESCAPE");

    private final String defaultKey;
    private final int port;
    private final int button;

    Action(String defaultKey, int port, int button) {
        this.defaultKey = defaultKey;
        this.port = port;
        this.button = button;
    }

    Action(String defaultKey) {
        this(defaultKey, -1, 0);
    }

    public String defaultKey() {
        return defaultKey;
    }

    /** True for a controller button, false for a hotkey. */
    public boolean isButton() {
        return port >= 0;
    }

    /** Controller port 0 or 1 (buttons only). */
    public int port() {
        return port;
    }

    /** The button's bit in the controller byte (buttons only). */
    public int button() {
        return button;
    }

    /** What the action does, in a few words (the F1 key list). */
    public String label() {
        if (isButton()) {
            String b = name().substring(3).toLowerCase(java.util.Locale.ROOT);
            return "player " + (port + 1) + " " + (b.length() == 1 ? b.toUpperCase(java.util.Locale.ROOT) : b);
        }
        return switch (this) {
            case PAUSE -> "pause / resume";
            case RESET -> "reset";
            case POWER_CYCLE -> "power cycle";
            case SAVE_STATE -> "save the state in the slot";
            case LOAD_STATE -> "load the state in the slot";
            case REWIND -> "rewind (hold)";
            case FAST_FORWARD -> "fast-forward (hold)";
            case SCREENSHOT -> "screenshot";
            case RECORD_MOVIE -> "record a movie from power-on";
            case RECORD_MOVIE_FROM_STATE -> "record a movie from here";
            case LOCKSTEP -> "lockstep mode on / off";
            case ASPECT -> "8:7 / square pixels";
            case SCALE_UP -> "window larger";
            case SCALE_DOWN -> "window smaller";
            case OPEN_ROM -> "open a ROM";
            case HELP -> "this key list";
            case DEBUGGER -> "the debugger";
            case DISK_SIDE -> "disk out / next side";
            case CHEATS -> "the cheat list";
            case NEXT_TRACK -> "NSF: next track";
            case PREVIOUS_TRACK -> "NSF: previous track";
            case QUIT -> "quit";
            default -> "state slot " + slot();
        };
    }

    /** The slot 1-9 of a SLOT_n action, else 0. */
    public int slot() {
        return name().startsWith("SLOT_") ? name().charAt(5) - '0' : 0;
    }
}
