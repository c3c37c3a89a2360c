package lockstep.nes.desktop;

import static org.lwjgl.glfw.GLFW.*;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;


import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.RegionWarning;
import lockstep.nes.core.Console;
import lockstep.nes.desktop.debug.Debugger;
import lockstep.nes.desktop.netplay.NetplayGame;
import lockstep.nes.desktop.netplay.NetplayLaunch;
import lockstep.nes.netplay.NetplayException;
import lockstep.nes.desktop.debug.DebuggerWindow;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Region;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.verifier.FaultSpec;
import org.lwjgl.PointerBuffer;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.glfw.GLFWGamepadState;
import org.lwjgl.glfw.GLFWVidMode;
import org.lwjgl.opengl.GL;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.tinyfd.TinyFileDialogs;

/**
 * The window: GLFW + OpenGL picture and overlay, OpenAL sound (or a timer when there is no
 * device), keyboard and gamepads, hotkeys. The game itself is a {@link Session}; this class only
 * moves pixels, samples and key presses between it and the machine.
 *
 * <p>Pacing: frames are run when the sound queue needs samples (the audio clock), so the game
 * runs at the console's rate (NTSC 60.0988 Hz, PAL and Dendy 50.0070 Hz: the APU's samples
 * follow its CPU clock) whatever the monitor's refresh; vsync (where the driver
 * offers it) keeps the picture from tearing; dynamic rate control keeps the queue near its
 * target.
 */
public final class DesktopApp {

    /** How the app is started (the {@code lockstep run} options). */
    public static final class Options {
        /** The ROM to open; null: the last ROM played, or the built-in demo ROM on a first run. */
        public Path rom;
        /** The .nes file to open inside {@link #rom} when it is a .zip archive holding several (or null). */
        public String entry;
        /** The Famicom Disk System BIOS for a disk image (null: disksys.rom in the config folder). */
        public Path fdsBios;
        /** The disk side in the drive at power-on for a disk image given on the command line (null: 1A). */
        public String diskSide;
        /** The console to run ROMs on whatever their header says; null: the header's. */
        public Region region;
        /** Cheats in effect from power-on ({@code --cheat}). */
        public java.util.List<lockstep.nes.core.cheat.Cheat> cheats = java.util.List.of();
        public int scale = 3;
        /** Show pixels 8:7 wide as a TV did (false: square pixels). */
        public boolean aspect = true;
        public boolean vsync = true;
        public boolean audio = true;
        public boolean osd = true;
        public boolean lockstep;
        public List<FaultSpec> faults = List.of();
        /** Exit after this many frames (0: run until closed). */
        public long exitAfterFrames;
        /** At exit, write what the window shows (read back from the framebuffer) as PNG. */
        public Path windowScreenshot;
        /** Start in full screen (Alt+Enter toggles). */
        public boolean fullscreen;
        /** Open the debugger's window at start. */
        public boolean debugger;
        /** At exit, write what the debugger's window shows as PNG (opens it if needed). */
        public Path debuggerScreenshot;
        /** Host or join a netplay session with the ROM opened at start (null: play alone). */
        public NetplayLaunch netplay;
        /** The engine build's id, which a netplay peer must share. */
        public String buildId = "dev";
        public AppDirs dirs = AppDirs.forUser();
        public PrintStream err = System.err;
    }

    private static final int MAX_SCALE = 8;
    private static final Action[] ACTIONS = Action.values();
    private static final int COLOR_TEXT = 0xFFFFFFFF;
    private static final int COLOR_OK = 0xFF60FF60;
    private static final int COLOR_BAD = 0xFFFF6060;

    private final Options o;
    private final Osd osd = new Osd();
    private final int[] rgb = new int[Ppu.WIDTH * Ppu.HEIGHT];
    private final boolean[] keyDown = new boolean[Keys.LIMIT];
    private final GLFWGamepadState pad = GLFWGamepadState.create();
    private final RateControl rateControl = new RateControl();
    private final short[] pcm = new short[8192];
    private final short[] resampled = new short[8192 * 2];

    private KeyConfig keys;
    private long window;
    private Renderer renderer;
    private Canvas canvas;
    private AudioSink audio;
    private Session session;
    private Path romPath;
    /** The error shown instead of a game (a ROM that did not open, an engine failure), or null. */
    private List<String> error;
    private boolean help;
    /** The NSF playing, with its track; null for a game. */
    private lockstep.nes.desktop.nsf.NsfDeck deck;
    /** The cheat list panel; while open it takes the keyboard. */
    private final lockstep.nes.desktop.cheats.CheatMenu cheatMenu = new lockstep.nes.desktop.cheats.CheatMenu();
    /** The character of the key that opened the cheat panel, not to be typed into it. */
    private boolean swallowChar;
    private int scale;
    private boolean aspect;
    private String glfwError = "";
    private final Debugger debugger = new Debugger();
    private boolean fullscreen;
    private final int[] windowedX = new int[1];
    private final int[] windowedY = new int[1];
    private DebuggerWindow debuggerWindow;
    /** The netplay session being played in place of the local one, or null. */
    private NetplayGame netplay;
    private boolean netplaySoundSet;
    /** A netplay session ended by the network or the peer (the exit code is then 4). */
    private boolean netplayFailed;

    /** The picture's first and past-last rows on the overlay canvas (set as each frame is drawn). */
    private int pictureTop;
    private int pictureBottom;

    private DesktopApp(Options o) {
        this.o = o;
        this.scale = Math.max(1, Math.min(MAX_SCALE, o.scale));
        this.aspect = o.aspect;
    }

    /** Runs the app until its window closes; returns the exit code (2: no window, or a ROM error at exit). */
    public static int run(Options o) {
        return new DesktopApp(o).run();
    }

    private int run() {
        KeyConfig.Loaded loaded = KeyConfig.load(o.dirs.keyConfig());
        keys = loaded.config();
        for (String w : loaded.warnings()) {
            o.err.println("warning: " + w);
            osd.post(w);
        }
        GLFWErrorCallback.create((code, description) -> glfwError = GLFWErrorCallback.getDescription(description)).set();
        String wayland = System.getenv("WAYLAND_DISPLAY");
        if (wayland == null || wayland.isEmpty()) {
            // Without a Wayland session only X11 can work: do not let GLFW probe Wayland (and print
            // its complaints about XDG_RUNTIME_DIR).
            glfwInitHint(GLFW_PLATFORM, GLFW_PLATFORM_X11);
        }
        boolean started;
        String noWindow;
        try {
            started = glfwInit();
            noWindow = started ? null : noWindowReason();
        } catch (LinkageError e) {
            started = false;
            noWindow = "GLFW's native library does not load (" + e.getMessage() + ")";
        }
        if (!started) {
            // Without a window a ROM that does not open cannot show its error there: it is the
            // first thing to fix, so it is the line printed.
            String romError = romError();
            o.err.println("error: " + (romError != null ? romError : "cannot open a window: " + noWindow));
            return 2;
        }
        try {
            return runWindow();
        } finally {
            glfwTerminate();
            GLFWErrorCallback cb = glfwSetErrorCallback(null);
            if (cb != null) {
                cb.free();
            }
        }
    }

    /** Why the ROM given on the command line does not open, or null when it does (or none was given). */
    private String romError() {
        if (o.rom == null || o.rom.toString().equals(DemoRom.BUILTIN)) {
            return null;
        }
        try {
            lockstep.nes.core.cart.RomFile.Image image = lockstep.nes.core.cart.RomFile.read(o.rom, o.entry);
            if (lockstep.nes.core.nsf.NsfFile.looksLike(image.bytes())) {
                lockstep.nes.core.nsf.NsfFile.parse(image.name(), image.bytes());
                return null;
            }
            Cartridge.load(o.rom, o.entry).createMapper();
            return null;
        } catch (RomFormatException | lockstep.nes.core.nsf.NsfFormatException e) {
            return e.getMessage();
        }
    }

    private String noWindowReason() {
        String display = System.getenv("DISPLAY");
        String wayland = System.getenv("WAYLAND_DISPLAY");
        String why = glfwError.isEmpty() ? "GLFW failed to start" : glfwError;
        if ((display == null || display.isEmpty()) && (wayland == null || wayland.isEmpty())) {
            why += " (no display: DISPLAY is not set; 'lockstep headless' runs without a window)";
        }
        return why;
    }

    private int runWindow() {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
        glfwWindowHint(GLFW_VISIBLE, GLFW_TRUE);
        int fit = largestScaleOnScreen();
        if (scale > fit) {
            o.err.println("run: --scale " + scale + " does not fit the screen: using " + fit);
            osd.post("scale " + scale + "x does not fit the screen: " + fit + "x");
            scale = fit;
        }
        window = glfwCreateWindow(Renderer.pictureWidth(scale, aspect), Ppu.HEIGHT * scale, "lockstep-nes", 0, 0);
        if (window == 0) {
            o.err.println("error: cannot open a window: " + (glfwError.isEmpty() ? "no OpenGL context" : glfwError));
            return 2;
        }
        glfwMakeContextCurrent(window);
        GL.createCapabilities();
        glfwSwapInterval(o.vsync ? 1 : 0);
        renderer = new Renderer();
        loadGamepadMappings();
        openAudio();
        o.err.println("audio: " + audio.description());

        glfwSetKeyCallback(window, (w, key, scancode, action, mods) -> guarded(() -> {
            if (key == GLFW_KEY_ENTER && (mods & GLFW_MOD_ALT) != 0) {
                // Alt+Enter is the window's, not Start's.
                if (action == GLFW_PRESS) {
                    toggleFullscreen();
                }
                return;
            }
            onKey(key, action);
        }));
        glfwSetCharCallback(window, (w, codePoint) -> guarded(() -> {
            if (swallowChar) {
                swallowChar = false;
                return;
            }
            if (cheatMenu.isOpen() && session != null) {
                cheatMenu.typed(codePoint, session); // the session posts what it did
            }
        }));
        glfwSetDropCallback(window, (w, count, names) -> guarded(() -> {
            if (count > 0) {
                openRom(Path.of(org.lwjgl.glfw.GLFWDropCallback.getName(names, 0)));
            }
        }));

        Path first = o.rom != null ? o.rom : lastRom();
        if (first != null && first.toString().equals(DemoRom.BUILTIN)) {
            first = null;
        }
        openRom(first);
        if (first == null) {
            osd.post("the built-in demo ROM: F6 opens a ROM, or drop one on the window; F1 lists the keys");
        }
        o.err.println("run: playing " + (first != null ? first : DemoRom.NAME + " (built in)")
                + (o.rom == null ? (first != null ? ", the last ROM played" : ": no ROM given and none played before") : ""));
        if (o.lockstep && session != null) {
            session.act(Action.LOCKSTEP);
        }
        if (o.netplay != null && session != null) {
            startNetplay();
        }
        if (o.fullscreen) {
            toggleFullscreen();
        }
        if (o.debugger || o.debuggerScreenshot != null) {
            toggleDebugger();
        }
        int code = loop();
        closeNetplay();
        if (netplayFailed && code == 0) {
            code = 4;
        }
        if (debuggerWindow != null) {
            debuggerWindow.close();
        }
        closeSession();
        audio.close();
        renderer.close();
        glfwDestroyWindow(window);
        return code;
    }

    /** Runs a callback's work; a failure in it ends the game (shown in the window), not the app. */
    private void guarded(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            String msg = e.getMessage() != null ? e.getMessage() : e.toString();
            o.err.println("error: " + msg);
            closeSession();
            showError("the game stopped", msg);
        }
    }

    private void openAudio() {
        int rate = 48_000;
        String why = "disabled by --no-audio";
        if (o.audio && SoundProbe.nowhereToPlay() != null) {
            why = SoundProbe.nowhereToPlay();
        } else if (o.audio) {
            String[] reason = {""};
            AudioSink al = OpenAlAudio.open(rate, reason);
            if (al != null) {
                audio = al;
                return;
            }
            why = reason[0];
        }
        audio = new NullAudio(rate, rate / 4, why);
    }

    private void loadGamepadMappings() {
        Path db = o.dirs.config().resolve("gamecontrollerdb.txt");
        if (!Files.isRegularFile(db)) {
            return;
        }
        try {
            String text = Files.readString(db, StandardCharsets.UTF_8);
            try (MemoryStack stack = MemoryStack.stackPush()) {
                if (!glfwUpdateGamepadMappings(stack.ASCII(text))) {
                    o.err.println("warning: " + db + ": GLFW rejected the gamepad mappings (" + glfwError + ")");
                }
            }
        } catch (IOException e) {
            o.err.println("warning: " + db + ": cannot read (" + e.getMessage() + ")");
        }
    }

    // ROMs

    private Path lastRomFile() {
        return o.dirs.config().resolve("last-rom.txt");
    }

    private Path lastRom() {
        try {
            Path f = lastRomFile();
            if (Files.isRegularFile(f)) {
                Path p = Path.of(Files.readString(f, StandardCharsets.UTF_8).trim());
                return Files.isRegularFile(p) ? p : null;
            }
        } catch (IOException | RuntimeException e) {
            // no usable memory of the last ROM: start with the demo
        }
        return null;
    }

    /** A ROM, or a disk image with the BIOS and (for the one given on the command line) the side chosen. */
    private Cartridge load(Path rom, String entry) throws lockstep.nes.core.cart.RomFormatException {
        lockstep.nes.core.cart.RomFile.Image image = lockstep.nes.core.cart.RomFile.read(rom, entry);
        if (lockstep.nes.core.cart.fds.DiskImage.looksLikeDisk(image.bytes())) {
            return lockstep.nes.core.cart.fds.DiskSystem.load(image.name(), image.bytes(), o.fdsBios,
                    rom.equals(o.rom) ? o.diskSide : null);
        }
        return Cartridge.parse(image.name(), image.bytes());
    }

    /** Opens {@code rom} (null: the demo ROM); a ROM that fails shows its error in the window. */
    private void openRom(Path rom) {
        closeSession();
        error = null;
        romPath = rom;
        try {
            // --entry names a file of the archive given on the command line, not of one opened later.
            String entry = rom != null && rom.equals(o.rom) ? o.entry : null;
            deck = null;
            if (rom != null) {
                lockstep.nes.core.cart.RomFile.Image image = lockstep.nes.core.cart.RomFile.read(rom, entry);
                if (lockstep.nes.core.nsf.NsfFile.looksLike(image.bytes())) {
                    deck = new lockstep.nes.desktop.nsf.NsfDeck(
                            lockstep.nes.core.nsf.NsfFile.parse(image.name(), image.bytes()), o.region);
                    playTrack();
                    return;
                }
            }
            Cartridge cart = rom == null ? Cartridge.parse(DemoRom.NAME, DemoRom.bytes()) : load(rom, entry);
            if (!o.cheats.isEmpty()) {
                cart = cart.withCheats(o.cheats);
            }
            if (o.region != null) {
                cart = cart.withRegion(o.region);
            }
            String regionWarning = rom == null ? null : RegionWarning.of(cart, rom.toString());
            if (regionWarning != null) {
                System.err.println(regionWarning);
            }
            session = Session.open(cart, rom, o.dirs, osd, o.faults);
            session.console().apu().audio().setSampleRate(audio.rate());
            if (debuggerWindow != null) {
                session.attachDebugger(debugger);
            }
            glfwSetWindowTitle(window, "lockstep-nes - " + session.romName());
            osd.post("opened " + (rom == null ? DemoRom.NAME + " (built in)" : rom.toString()));
            if (rom != null) {
                try {
                    Files.createDirectories(o.dirs.config());
                    AtomicFile.write(lastRomFile(), (rom.toAbsolutePath() + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // remembering the ROM is a convenience; playing it is what matters
                }
            }
        } catch (RomFormatException | lockstep.nes.core.nsf.NsfFormatException | RuntimeException e) {
            session = null;
            deck = null;
            String msg = e.getMessage() != null ? e.getMessage() : e.toString();
            o.err.println("error: " + msg);
            showError("cannot open " + (rom == null ? "the demo ROM" : rom.getFileName().toString()), msg);
            glfwSetWindowTitle(window, "lockstep-nes - no game");
        }
    }

    /** Plays the deck's present track from its start (a session of its own). */
    private void playTrack() throws RomFormatException {
        closeSession();
        session = Session.ofConsole(deck.console(), romPath, o.dirs, osd);
        session.console().apu().audio().setSampleRate(audio.rate());
        glfwSetWindowTitle(window, "lockstep-nes - " + session.romName());
        osd.post(String.join(" - ", deck.lines()));
    }

    private void showError(String title, String message) {
        error = new ArrayList<>();
        error.add(title);
        error.add("");
        error.add(message);
        error.add("");
        error.add("F6 opens a ROM, or drop one on this window");
    }

    private void startNetplay() {
        try {
            // With --exit-after-frames both peers play that many frames and end together.
            netplay = NetplayGame.start(session.cart(), o.netplay, o.buildId, (int) Math.min(o.exitAfterFrames, 1 << 30), o.err);
            o.err.println("run: " + netplay.lines().get(0));
        } catch (NetplayException e) {
            netplayFailed(e);
        }
    }

    private void netplayFailed(NetplayException e) {
        o.err.println("error: " + e.getMessage());
        closeNetplay();
        netplayFailed = true;
        showError("netplay stopped", e.getMessage());
    }

    private void closeNetplay() {
        if (netplay != null) {
            if (netplay.connected() && !netplay.ended()) {
                o.err.println("lockstep: " + netplay.result().summary());
            }
            netplay.close();
            netplay = null;
        }
    }

    /** The engine shown and heard: the netplay session's once it plays, else the local one's. */
    private Console shownConsole() {
        if (netplay != null && netplay.console() != null) {
            return netplay.console();
        }
        return session != null ? session.console() : null;
    }

    private void closeSession() {
        closeNetplay(); // it plays the session's ROM
        if (session != null) {
            for (String line : session.close()) {
                o.err.println("lockstep: " + line);
            }
            session = null;
        }
    }

    // Input

    private void onKey(int key, int action) {
        if (key < 0 || key >= Keys.LIMIT || action == GLFW_REPEAT) {
            return;
        }
        if (cheatMenu.isOpen() && action == GLFW_PRESS) {
            if (session == null) {
                cheatMenu.close();
            } else {
                cheatKey(key);
                return;
            }
        }
        keyDown[key] = action == GLFW_PRESS;
        if (action != GLFW_PRESS) {
            return;
        }
        for (Action a : keys.actionsOf(key)) {
            if (!a.isButton() && a != Action.REWIND && a != Action.FAST_FORWARD) {
                hotkey(a);
            }
        }
    }

    /** A key pressed while the cheat panel is open: the panel's keys, nothing else. */
    private void cheatKey(int key) {
        lockstep.nes.desktop.cheats.CheatMenu.Key k = switch (key) {
            case GLFW_KEY_UP -> lockstep.nes.desktop.cheats.CheatMenu.Key.UP;
            case GLFW_KEY_DOWN -> lockstep.nes.desktop.cheats.CheatMenu.Key.DOWN;
            case GLFW_KEY_ENTER, GLFW_KEY_KP_ENTER -> lockstep.nes.desktop.cheats.CheatMenu.Key.ENTER;
            case GLFW_KEY_BACKSPACE -> lockstep.nes.desktop.cheats.CheatMenu.Key.BACKSPACE;
            case GLFW_KEY_ESCAPE -> lockstep.nes.desktop.cheats.CheatMenu.Key.ESCAPE;
            default -> null;
        };
        if (k != null) {
            cheatMenu.key(k, session); // the session posts what it did
        }
    }

    private boolean held(Action a) {
        int k = keys.key(a);
        return k >= 0 && k < Keys.LIMIT && keyDown[k];
    }

    private void hotkey(Action a) {
        switch (a) {
            case ASPECT -> {
                aspect = !aspect;
                resize();
                osd.post(aspect ? "pixel aspect 8:7 (as on a TV)" : "square pixels");
            }
            case SCALE_UP, SCALE_DOWN -> {
                scale = Math.max(1, Math.min(MAX_SCALE, scale + (a == Action.SCALE_UP ? 1 : -1)));
                resize();
                osd.post("scale " + scale + "x");
            }
            case OPEN_ROM -> openDialog();
            case HELP -> help = !help;
            case NEXT_TRACK, PREVIOUS_TRACK -> {
                if (deck == null) {
                    osd.post("no NSF is playing");
                } else {
                    if (a == Action.NEXT_TRACK) {
                        deck.next();
                    } else {
                        deck.previous();
                    }
                    try {
                        playTrack();
                    } catch (RomFormatException e) {
                        osd.post("cannot play track " + (deck.track() + 1) + ": " + e.getMessage());
                    }
                }
            }
            case CHEATS -> {
                if (session == null) {
                    osd.post("no game is running");
                } else {
                    java.util.Arrays.fill(keyDown, false);
                    cheatMenu.open();
                    // A printable key also sends its character, which is not part of a code.
                    swallowChar = keys.key(Action.CHEATS) < GLFW_KEY_WORLD_1;
                }
            }
            case DEBUGGER -> toggleDebugger();
            case QUIT -> glfwSetWindowShouldClose(window, true);
            default -> {
                if (session != null) {
                    session.act(a);
                } else {
                    osd.post("no game is running");
                }
            }
        }
    }

    /** Opens the debugger's window (breakpoints then apply to the game), or closes it. */
    private void toggleDebugger() {
        if (debuggerWindow != null) {
            debuggerWindow.close();
            debuggerWindow = null;
            if (session != null) {
                session.attachDebugger(null);
            }
            osd.post("debugger closed");
            return;
        }
        String[] why = {""};
        debuggerWindow = DebuggerWindow.open(window, debugger, why);
        if (debuggerWindow == null) {
            osd.post("no debugger: " + why[0]);
            o.err.println("warning: no debugger: " + why[0]);
            return;
        }
        if (session != null) {
            session.attachDebugger(debugger);
        }
        osd.post("debugger open (F4 closes it)");
    }

    private void resize() {
        if (fullscreen) {
            return;
        }
        int fit = largestScaleOnScreen();
        if (scale > fit) {
            osd.post("scale " + scale + "x does not fit the screen: " + fit + "x");
            scale = fit;
        }
        glfwSetWindowSize(window, Renderer.pictureWidth(scale, aspect), Ppu.HEIGHT * scale);
    }

    /**
     * The largest scale whose window fits the primary monitor's work area (the screen without
     * panels); {@link #MAX_SCALE} when no monitor answers (the window manager then decides).
     */
    private int largestScaleOnScreen() {
        long monitor = glfwGetPrimaryMonitor();
        if (monitor == 0) {
            return MAX_SCALE;
        }
        int[] x = new int[1];
        int[] y = new int[1];
        int[] w = new int[1];
        int[] h = new int[1];
        glfwGetMonitorWorkarea(monitor, x, y, w, h);
        if (w[0] <= 0 || h[0] <= 0) {
            return MAX_SCALE;
        }
        int s = MAX_SCALE;
        while (s > 1 && (Renderer.pictureWidth(s, aspect) > w[0] || Ppu.HEIGHT * s > h[0])) {
            s--;
        }
        return s;
    }

    /** Alt+Enter: the primary monitor in its present video mode, or back to the window. */
    private void toggleFullscreen() {
        if (!fullscreen) {
            long monitor = glfwGetPrimaryMonitor();
            GLFWVidMode mode = monitor == 0 ? null : glfwGetVideoMode(monitor);
            if (mode == null) {
                osd.post("full screen: no monitor answers");
                return;
            }
            glfwGetWindowPos(window, windowedX, windowedY);
            fullscreen = true;
            glfwSetWindowMonitor(window, monitor, 0, 0, mode.width(), mode.height(), mode.refreshRate());
            osd.post("full screen (Alt+Enter leaves it)");
        } else {
            fullscreen = false;
            glfwSetWindowMonitor(window, 0, windowedX[0], windowedY[0], Renderer.pictureWidth(scale, aspect),
                    Ppu.HEIGHT * scale, GLFW_DONT_CARE);
            osd.post("windowed");
        }
        glfwSwapInterval(o.vsync ? 1 : 0);
    }

    private void openDialog() {
        String picked;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer filters = stack.mallocPointer(2);
            filters.put(stack.UTF8("*.nes")).put(stack.UTF8("*.NES")).flip();
            String start = romPath != null && romPath.toAbsolutePath().getParent() != null
                    ? romPath.toAbsolutePath().getParent() + "/" : "";
            picked = TinyFileDialogs.tinyfd_openFileDialog("Open a NES ROM", start, filters, "NES ROM (*.nes)", false);
        } catch (Throwable t) {
            osd.post("no file dialog available (" + t.getMessage() + "): drop a ROM on the window instead");
            return;
        }
        if (picked != null) {
            openRom(Path.of(picked));
        } else {
            osd.post("no ROM chosen (the dialog needs zenity or kdialog): you can also drop a ROM on the window");
        }
    }

    /** The controller byte of {@code port}: its keys, or'ed with its gamepad. */
    private int buttons(int port, int gamepadJid) {
        int b = 0;
        for (Action a : ACTIONS) {
            if (a.isButton() && a.port() == port && held(a)) {
                b |= a.button();
            }
        }
        if (gamepadJid >= 0 && glfwGetGamepadState(gamepadJid, pad)) {
            b |= GamepadMap.buttons(pad, keys.stickThreshold());
        }
        // A d-pad cannot press opposite directions at once; games misbehave if it does.
        if ((b & 0x30) == 0x30) {
            b &= ~0x30;
        }
        if ((b & 0xC0) == 0xC0) {
            b &= ~0xC0;
        }
        return b;
    }

    // The loop

    private int loop() {
        int target = audio.rate() * 3 / 60;
        long frames = 0;
        long firstFrameNanos = 0;
        boolean rewindWasHeld = false;
        while (!glfwWindowShouldClose(window)) {
            glfwPollEvents();
            int pad0 = -1;
            int pad1 = -1;
            for (int jid = GLFW_JOYSTICK_1; jid <= GLFW_JOYSTICK_LAST; jid++) {
                if (glfwJoystickIsGamepad(jid)) {
                    if (pad0 < 0) {
                        pad0 = jid;
                    } else if (pad1 < 0) {
                        pad1 = jid;
                    }
                }
            }
            int b0 = buttons(0, pad0);
            int b1 = buttons(1, pad1);
            int ran = 0;
            boolean running = session != null && !session.paused();
            try {
                if (netplay != null && netplay.ended()) {
                    // Its last frame stays on screen until the window closes or exits.
                    running = false;
                } else if (netplay != null) {
                    // The window's player is this peer's player: the keys and pad of port 1.
                    running = true;
                    try {
                        ran = netplay.pump(b0);
                    } catch (NetplayException e) {
                        netplayFailed(e);
                    }
                    if (netplay != null && netplay.console() != null) {
                        if (!netplaySoundSet) {
                            netplay.console().apu().audio().setSampleRate(audio.rate());
                            netplaySoundSet = true;
                        }
                        pushAudio(target);
                        if (netplay.ended()) {
                            osd.post("netplay: the session ended");
                            o.err.println("lockstep: " + netplay.result().summary());
                        }
                    }
                } else if (session != null && held(Action.REWIND)) {
                    rewindWasHeld = true;
                    session.rewindStep();
                    drainAudio();
                    running = false;
                } else if (session != null) {
                    if (rewindWasHeld) {
                        rewindWasHeld = false;
                        session.rewindReleased();
                    }
                    if (held(Action.FAST_FORWARD)) {
                        while (!session.paused() && ran < 4 && !done(frames + ran)) {
                            session.runFrame(b0, b1);
                            ran++;
                        }
                        drainAudio();
                    } else {
                        while (!session.paused() && ran < 3 && audio.queued() < target && !done(frames + ran)) {
                            session.runFrame(b0, b1);
                            ran++;
                            pushAudio(target);
                        }
                        if (session.paused()) {
                            drainAudio();
                        }
                    }
                }
            } catch (RuntimeException e) {
                // An engine failure is a bug, but it ends the game, not the app.
                String msg = e.getMessage() != null ? e.getMessage() : e.toString();
                o.err.println("error: the engine failed: " + msg);
                closeSession();
                showError("the engine stopped", msg);
            }
            if (firstFrameNanos == 0 && ran > 0) {
                firstFrameNanos = System.nanoTime();
            }
            frames += running ? ran : 1;
            boolean last = done(frames);
            render();
            if (debuggerWindow != null) {
                if (debuggerWindow.closeRequested()) {
                    toggleDebugger();
                } else {
                    glfwMakeContextCurrent(window);
                    debuggerWindow.draw(session);
                    if (last && o.debuggerScreenshot != null) {
                        writePng(debuggerWindow.read(), o.debuggerScreenshot, "debugger screenshot");
                    }
                    debuggerWindow.swap();
                }
            }
            if (last) {
                if (firstFrameNanos != 0) {
                    double s = (System.nanoTime() - firstFrameNanos) / 1e9;
                    o.err.printf(Locale.ROOT, "lockstep: %d frames in %.2f s (%.1f fps)%n", frames, s, frames / Math.max(1e-9, s));
                }
                return finish();
            }
            glfwSwapBuffers(window);
            osd.tick();
            if (ran == 0) {
                sleepMillis(2);
            }
        }
        return 0;
    }

    private boolean done(long frames) {
        // A netplay session plays its frames to the end with its peer before the window exits.
        return o.exitAfterFrames > 0 && frames >= o.exitAfterFrames && (netplay == null || netplay.ended());
    }

    /** --exit-after-frames reached: the window screenshot of what is drawn, then the exit code. */
    private int finish() {
        int code = error != null ? 2 : 0;
        if (o.windowScreenshot != null) {
            int[] w = new int[1];
            int[] h = new int[1];
            glfwGetFramebufferSize(window, w, h);
            if (!writePng(Renderer.read(w[0], h[0]), o.windowScreenshot, "window screenshot")) {
                code = 2;
            }
        }
        return code;
    }

    /** Writes {@code img} as PNG to {@code file}, reporting on stderr; false if it could not. */
    private boolean writePng(BufferedImage img, Path file, String what) {
        try {
            // By the output rule (AtomicFile): a device is written in place, never deleted and
            // replaced, and a failed write leaves the target as it was.
            AtomicFile.write(file, FrameImage.png(img));
            o.err.println("lockstep: " + what + " " + img.getWidth() + "x" + img.getHeight() + " written to " + file);
            return true;
        } catch (IOException e) {
            o.err.println("error: " + file + ": cannot write (" + e.getMessage() + ")");
            return false;
        }
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pushAudio(int target) {
        var out = shownConsole().apu().audio();
        int n;
        while ((n = out.read(pcm, 0, pcm.length)) > 0) {
            int k = rateControl.process(pcm, n, RateControl.ratio(audio.queued(), target), resampled);
            audio.write(resampled, k);
        }
    }

    private void drainAudio() {
        if (session == null) {
            return;
        }
        var out = session.console().apu().audio();
        while (out.read(pcm, 0, pcm.length) > 0) {
            // dropped: no sound while paused, rewinding or fast-forwarding
        }
    }

    // Drawing

    private void render() {
        int[] w = new int[1];
        int[] h = new int[1];
        glfwGetFramebufferSize(window, w, h);
        int fbW = Math.max(1, w[0]);
        int fbH = Math.max(1, h[0]);
        int fit = fitScale(fbW, fbH);
        if (session != null) {
            FrameImage.toRgb(shownConsole().ppu().frame(), session.palette(), rgb);
            renderer.picture(rgb);
        }
        boolean overlay = o.osd || error != null || cheatMenu.isOpen() || deck != null;
        if (overlay) {
            int g = fbH >= 480 ? 2 : 1;
            if (canvas == null || canvas.width != fbW / g || canvas.height != fbH / g) {
                canvas = new Canvas(Math.max(1, fbW / g), Math.max(1, fbH / g));
            }
            // The picture's rows on the canvas, as Renderer#draw centres it.
            int ph = Ppu.HEIGHT * fit;
            pictureTop = Math.max(0, (fbH - ph) / 2) / g;
            pictureBottom = Math.min(canvas.height, (Math.max(0, (fbH - ph) / 2) + ph) / g);
            drawOverlay(canvas);
            renderer.overlay(canvas);
        }
        renderer.draw(fbW, fbH, fit, aspect, session != null, overlay);
    }

    private int fitScale(int fbW, int fbH) {
        int s = MAX_SCALE;
        while (s > 1 && (Renderer.pictureWidth(s, aspect) > fbW || Ppu.HEIGHT * s > fbH)) {
            s--;
        }
        return s;
    }

    private void drawOverlay(Canvas c) {
        c.clear();
        int y = 4;
        if (netplay != null) {
            y += c.panel(4, y, netplay.lines(), netplay.desynced() ? COLOR_BAD : COLOR_OK) + 4;
        }
        if (session != null) {
            List<String> ls = session.lockstepLines();
            if (!ls.isEmpty()) {
                boolean bad = session.lockstep().diverged();
                y += c.panel(4, y, ls, bad ? COLOR_BAD : COLOR_OK) + 4;
            }
            List<String> status = new ArrayList<>();
            if (session.paused() && (session.lockstep() == null || !session.lockstep().diverged())) {
                status.add("PAUSED");
            }
            if (held(Action.REWIND)) {
                status.add(String.format(Locale.ROOT, "REWIND  %.1f s", session.tick() / session.frameRate()));
            } else if (held(Action.FAST_FORWARD)) {
                status.add("FAST FORWARD");
            }
            if (session.recording()) {
                status.add("REC");
            }
            if (!status.isEmpty()) {
                c.panel(c.width - 4 - (String.join("  ", status).length() * BitmapFont.CELL_W + 3), 4,
                        List.of(String.join("  ", status)), COLOR_TEXT);
            }
        }
        if (error != null) {
            List<String> lines = wrap(error, c.fits(8) - 1);
            int h = lines.size() * BitmapFont.CELL_H + 2;
            c.panel(4, Math.max(y, (c.height - h) / 2), lines, COLOR_BAD);
        }
        if (help) {
            y += c.panel(4, y, helpLines(), COLOR_TEXT) + 4;
        }
        if (deck != null && session != null) {
            y += c.panel(4, y, deck.lines(), COLOR_TEXT) + 4;
        }
        if (cheatMenu.isOpen() && session != null) {
            y += c.panel(4, y, cheatMenu.lines(session.cheatList()), COLOR_TEXT) + 4;
        }
        List<String> msgs = wrap(osd.lines(), c.fits(8) - 1);
        if (!msgs.isEmpty()) {
            int h = msgs.size() * BitmapFont.CELL_H + 2;
            c.panel(4, OverlayLayout.messagesTop(c.height, pictureTop, pictureBottom, h, y), msgs, COLOR_TEXT,
                    osd.opacity());
        }
    }

    private List<String> helpLines() {
        return KeyList.lines(keys, o.dirs.keyConfig());
    }


    /** Lines cut into pieces of at most {@code width} characters ({@link OverlayLayout#wrap}). */
    static List<String> wrap(List<String> lines, int width) {
        return OverlayLayout.wrap(lines, width);
    }
}
