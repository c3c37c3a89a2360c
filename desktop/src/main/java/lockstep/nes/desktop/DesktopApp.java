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
import lockstep.nes.desktop.cheats.CheatKeys;
import lockstep.nes.desktop.netplay.NetplayDriver;
import lockstep.nes.desktop.netplay.NetplayLaunch;
import lockstep.nes.desktop.nsf.NsfTracks;
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

    private static final Action[] ACTIONS = Action.values();
    private static final int COLOR_TEXT = 0xFFFFFFFF;
    private static final int COLOR_OK = 0xFF60FF60;
    private static final int COLOR_BAD = 0xFFFF6060;

    private final Options o;
    private final Osd osd = new Osd();
    private final int[] rgb = new int[Ppu.WIDTH * Ppu.HEIGHT];
    private final boolean[] keyDown = new boolean[Keys.LIMIT];
    private final GLFWGamepadState pad = GLFWGamepadState.create();
    private final RomFiles roms;
    private final WindowSize size;

    private KeyConfig keys;
    private long window;
    private Renderer renderer;
    private Canvas canvas;
    private AudioSink audio;
    private AudioPump sound;
    private Session session;
    private Path romPath;
    /** The error shown instead of a game (a ROM that did not open, an engine failure), or null. */
    private List<String> error;
    private boolean help;
    /** The NSF playing, with its track (none for a game). */
    private final NsfTracks tracks = new NsfTracks();
    /** The cheat list panel's keys; while open it takes the keyboard. */
    private final CheatKeys cheats = new CheatKeys();
    private String glfwError = "";
    private final Debugger debugger = new Debugger();
    private DebuggerWindow debuggerWindow;
    /** The netplay session played in place of the local one, if any. */
    private final NetplayDriver netplay;

    /** The picture's first and past-last rows on the overlay canvas (set as each frame is drawn). */
    private int pictureTop;
    private int pictureBottom;

    private DesktopApp(Options o) {
        this.o = o;
        this.size = new WindowSize(o.scale, o.aspect, o.vsync, osd);
        this.netplay = new NetplayDriver(o.err, osd::post);
        this.roms = new RomFiles(o);
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
            String romError = roms.error();
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
        String shrunk = size.fitBeforeOpening();
        if (shrunk != null) {
            o.err.println("run: " + shrunk);
        }
        window = glfwCreateWindow(Renderer.pictureWidth(size.scale(), size.aspect()), Ppu.HEIGHT * size.scale(),
                "lockstep-nes", 0, 0);
        if (window == 0) {
            o.err.println("error: cannot open a window: " + (glfwError.isEmpty() ? "no OpenGL context" : glfwError));
            return 2;
        }
        size.attach(window);
        glfwMakeContextCurrent(window);
        GL.createCapabilities();
        glfwSwapInterval(o.vsync ? 1 : 0);
        renderer = new Renderer();
        loadGamepadMappings();
        sound = AudioPump.open(o.audio);
        audio = sound.sink();
        o.err.println("audio: " + audio.description());

        glfwSetKeyCallback(window, (w, key, scancode, action, mods) -> guarded(() -> {
            if (key == GLFW_KEY_ENTER && (mods & GLFW_MOD_ALT) != 0) {
                // Alt+Enter is the window's, not Start's.
                if (action == GLFW_PRESS) {
                    size.toggleFullscreen();
                }
                return;
            }
            onKey(key, action);
        }));
        glfwSetCharCallback(window, (w, codePoint) -> guarded(() -> cheats.typed(codePoint, session)));
        glfwSetDropCallback(window, (w, count, names) -> guarded(() -> {
            if (count > 0) {
                openRom(Path.of(org.lwjgl.glfw.GLFWDropCallback.getName(names, 0)));
            }
        }));

        Path first = o.rom != null ? o.rom : roms.last();
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
        if (o.netplay != null && session != null
                && !netplay.start(session.cart(), o.netplay, o.buildId, o.exitAfterFrames)) {
            showNetplayFailure();
        }
        if (o.fullscreen) {
            size.toggleFullscreen();
        }
        if (o.debugger || o.debuggerScreenshot != null) {
            toggleDebugger();
        }
        int code = loop();
        netplay.close();
        if (netplay.failed() && code == 0) {
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

    /** Opens {@code rom} (null: the demo ROM); a ROM that fails shows its error in the window. */
    private void openRom(Path rom) {
        closeSession();
        error = null;
        romPath = rom;
        try {
            // --entry names a file of the archive given on the command line, not of one opened later.
            String entry = rom != null && rom.equals(o.rom) ? o.entry : null;
            tracks.close();
            if (rom != null && tracks.open(lockstep.nes.core.cart.RomFile.read(rom, entry), o.region)) {
                playTrack();
                return;
            }
            Cartridge cart = rom == null ? Cartridge.parse(DemoRom.NAME, DemoRom.bytes()) : roms.load(rom, entry);
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
                roms.remember(rom);
            }
        } catch (RomFormatException | lockstep.nes.core.nsf.NsfFormatException | RuntimeException e) {
            session = null;
            tracks.close();
            String msg = e.getMessage() != null ? e.getMessage() : e.toString();
            o.err.println("error: " + msg);
            showError("cannot open " + (rom == null ? "the demo ROM" : rom.getFileName().toString()), msg);
            glfwSetWindowTitle(window, "lockstep-nes - no game");
        }
    }

    /** Plays the NSF's present track from its start (a session of its own). */
    private void playTrack() throws RomFormatException {
        closeSession();
        session = Session.ofConsole(tracks.console(), romPath, o.dirs, osd);
        session.console().apu().audio().setSampleRate(audio.rate());
        glfwSetWindowTitle(window, "lockstep-nes - " + session.romName());
        osd.post(String.join(" - ", tracks.lines()));
    }

    private void showError(String title, String message) {
        error = new ArrayList<>();
        error.add(title);
        error.add("");
        error.add(message);
        error.add("");
        error.add("F6 opens a ROM, or drop one on this window");
    }

    /** A netplay failure not yet shown takes the window's place of the game. */
    private void showNetplayFailure() {
        String f = netplay.takeFailure();
        if (f != null) {
            showError("netplay stopped", f);
        }
    }

    /** The engine shown and heard: the netplay session's once it plays, else the local one's. */
    private Console shownConsole() {
        if (netplay.console() != null) {
            return netplay.console();
        }
        return session != null ? session.console() : null;
    }

    private void closeSession() {
        netplay.close(); // it plays the session's ROM
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
        if (action == GLFW_PRESS && cheats.press(key, session)) {
            return;
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

    private boolean held(Action a) {
        int k = keys.key(a);
        return k >= 0 && k < Keys.LIMIT && keyDown[k];
    }

    private void hotkey(Action a) {
        switch (a) {
            case ASPECT -> size.toggleAspect();
            case SCALE_UP, SCALE_DOWN -> size.step(a == Action.SCALE_UP);
            case OPEN_ROM -> openDialog();
            case HELP -> help = !help;
            case NEXT_TRACK, PREVIOUS_TRACK -> {
                String why = tracks.step(a == Action.NEXT_TRACK);
                if (why != null) {
                    osd.post(why);
                } else {
                    try {
                        playTrack();
                    } catch (RomFormatException e) {
                        osd.post("cannot play track " + (tracks.track() + 1) + ": " + e.getMessage());
                    }
                }
            }
            case CHEATS -> {
                String why = cheats.open(session, keys.key(Action.CHEATS));
                if (why != null) {
                    osd.post(why);
                } else {
                    java.util.Arrays.fill(keyDown, false);
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
                if (netplay.ended()) {
                    // Its last frame stays on screen until the window closes or exits.
                    running = false;
                } else if (netplay.active()) {
                    // The window's player is this peer's player: the keys and pad of port 1.
                    running = true;
                    ran = netplay.pump(b0, audio.rate());
                    showNetplayFailure();
                    if (netplay.console() != null) {
                        pushAudio(target);
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
        return o.exitAfterFrames > 0 && frames >= o.exitAfterFrames && (!netplay.active() || netplay.ended());
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
        sound.push(shownConsole(), target);
    }

    private void drainAudio() {
        if (session != null) {
            sound.drain(session.console());
        }
    }

    // Drawing

    private void render() {
        int[] w = new int[1];
        int[] h = new int[1];
        glfwGetFramebufferSize(window, w, h);
        int fbW = Math.max(1, w[0]);
        int fbH = Math.max(1, h[0]);
        int fit = size.fit(fbW, fbH);
        if (session != null) {
            FrameImage.toRgb(shownConsole().ppu().frame(), session.palette(), rgb);
            renderer.picture(rgb);
        }
        boolean overlay = o.osd || error != null || cheats.isOpen() || tracks.playing();
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
        renderer.draw(fbW, fbH, fit, size.aspect(), session != null, overlay);
    }

    private void drawOverlay(Canvas c) {
        c.clear();
        int y = 4;
        if (netplay.active()) {
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
        if (tracks.playing() && session != null) {
            y += c.panel(4, y, tracks.lines(), COLOR_TEXT) + 4;
        }
        if (cheats.isOpen() && session != null) {
            y += c.panel(4, y, cheats.lines(session.cheatList()), COLOR_TEXT) + 4;
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
