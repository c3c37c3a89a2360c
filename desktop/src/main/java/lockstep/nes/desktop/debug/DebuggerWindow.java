package lockstep.nes.desktop.debug;

import static org.lwjgl.glfw.GLFW.*;
import static org.lwjgl.opengl.GL11.*;
import static org.lwjgl.opengl.GL12.GL_BGRA;
import static org.lwjgl.opengl.GL12.GL_CLAMP_TO_EDGE;
import static org.lwjgl.opengl.GL12.GL_UNSIGNED_INT_8_8_8_8_REV;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Locale;

import imgui.ImGui;
import imgui.flag.ImGuiCond;
import imgui.gl3.ImGuiImplGl3;
import imgui.glfw.ImGuiImplGlfw;
import imgui.type.ImInt;
import imgui.type.ImString;
import lockstep.nes.core.Console;
import lockstep.nes.desktop.Action;
import lockstep.nes.desktop.Renderer;
import lockstep.nes.desktop.Session;
import lockstep.nes.ppu.Palette;
import org.lwjgl.opengl.GL;

/**
 * The debugger's own window (Dear ImGui over GLFW and OpenGL): the CPU with its disassembly and
 * the run controls (pause, step an instruction, a scanline, a frame; run to the next divergence
 * in lockstep mode), the PPU's registers, breakpoints, a hex view of CPU memory that follows
 * writes, and viewers of the nametables, pattern tables, sprites and palette RAM. Everything
 * shown is taken from one {@link MachineView} per drawn frame.
 */
public final class DebuggerWindow implements AutoCloseable {
    public static final int WIDTH = 1220;
    public static final int HEIGHT = 900;

    /**
     * The panels' places and sizes (x, y, width, height), in the window's pixels. ImGui's
     * built-in font (ProggyClean, 13 px) advances {@link #CHAR_W} pixels a character and a line
     * of text takes {@link #LINE_H}; a panel adds {@link #PADDING} on each side and its title bar
     * ({@link #TITLE_H}), a list that scrolls its {@link #SCROLLBAR}: the text panels are sized
     * so that none of their lines is cut (DebuggerLayoutTest).
     */
    static final int CHAR_W = 7;
    static final int LINE_H = 17;
    static final int PADDING = 8;
    static final int TITLE_H = 19;
    static final int SCROLLBAR = 14;
    static final int[] CPU_PANEL = {8, 8, 392, 330};
    static final int[] PPU_PANEL = {8, 346, 392, 180};
    static final int[] BREAKPOINTS_PANEL = {8, 534, 392, 120};
    static final int[] MEMORY_PANEL = {8, 662, 560, 230};
    static final int[] NAMETABLES_PANEL = {408, 8, 530, 560};
    static final int[] PATTERNS_PANEL = {946, 8, 272, 190};
    static final int[] PALETTE_PANEL = {946, 206, 272, 80};
    static final int[] SPRITES_PANEL = {946, 294, 272, 598};

    private final long window;
    private final long mainWindow;
    private final ImGuiImplGlfw imguiGlfw = new ImGuiImplGlfw();
    private final ImGuiImplGl3 imguiGl3 = new ImGuiImplGl3();
    private final Debugger debugger;
    private final HexView hex = new HexView();
    private Palette colors;
    private final Image nametables = new Image(Nametables.WIDTH, Nametables.HEIGHT);
    private final Image patterns = new Image(PatternTables.WIDTH, PatternTables.HEIGHT);
    private final Image sprites = new Image(Sprites.WIDTH, Sprites.HEIGHT);
    private final Image palette = new Image(PaletteRam.WIDTH, PaletteRam.HEIGHT);
    private final int[] patternPalette = {0};
    private final ImString breakAddress = new ImString("C000", 8);
    private final ImInt breakKind = new ImInt(0);
    private final ImString pinAddress = new ImString("0000", 8);
    private String message = "";

    private DebuggerWindow(long window, long mainWindow, Debugger debugger) {
        this.window = window;
        this.mainWindow = mainWindow;
        this.debugger = debugger;
    }

    /**
     * Opens the window (its own OpenGL context; {@code mainWindow}'s context is current again on
     * return). Returns null, with the reason in {@code why[0]}, when it cannot be opened.
     */
    public static DebuggerWindow open(long mainWindow, Debugger debugger, String[] why) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
        long w = glfwCreateWindow(WIDTH, HEIGHT, "lockstep-nes debugger", 0, 0);
        if (w == 0) {
            why[0] = "no OpenGL context for a second window";
            return null;
        }
        DebuggerWindow d = new DebuggerWindow(w, mainWindow, debugger);
        glfwMakeContextCurrent(w);
        GL.createCapabilities();
        try {
            ImGui.createContext();
            // No imgui.ini in the working directory: the layout is fixed below.
            ImGui.getIO().setIniFilename(null);
            d.imguiGlfw.init(w, true);
            d.imguiGl3.init("#version 130");
        } catch (RuntimeException | LinkageError e) {
            glfwDestroyWindow(w);
            glfwMakeContextCurrent(mainWindow);
            GL.createCapabilities();
            why[0] = "Dear ImGui does not start here (" + e.getMessage() + ")";
            return null;
        }
        for (Image i : new Image[] {d.nametables, d.patterns, d.sprites, d.palette}) {
            i.create();
        }
        glfwMakeContextCurrent(mainWindow);
        GL.createCapabilities();
        return d;
    }

    /** True when the user closed the window. */
    public boolean closeRequested() {
        return glfwWindowShouldClose(window);
    }

    /** Draws one frame of the window for {@code session} (null: no game). */
    public void draw(Session session) {
        glfwMakeContextCurrent(window);
        GL.createCapabilities();
        imguiGl3.newFrame();
        imguiGlfw.newFrame();
        ImGui.newFrame();
        if (session == null) {
            panel("No game", new int[] {8, 8, 400, 60});
            ImGui.text("no game is running");
            ImGui.end();
        } else {
            // The console's own palette (NTSC, or PAL/Dendy with their emphasis bits).
            colors = session.palette();
            MachineView m = MachineView.of(session.console());
            hex.update(m);
            cpu(session, m);
            ppu(m);
            breakpoints();
            memory(m);
            images(m);
        }
        ImGui.render();
        int[] w = new int[1];
        int[] h = new int[1];
        glfwGetFramebufferSize(window, w, h);
        glViewport(0, 0, w[0], h[0]);
        glClearColor(0.12f, 0.12f, 0.14f, 1f);
        glClear(GL_COLOR_BUFFER_BIT);
        imguiGl3.renderDrawData(ImGui.getDrawData());
    }

    /** Shows the drawn frame, and makes the main window's context current again. */
    public void swap() {
        glfwSwapBuffers(window);
        glfwMakeContextCurrent(mainWindow);
        GL.createCapabilities();
    }

    /** What the window shows now (call between {@link #draw} and {@link #swap}). */
    public BufferedImage read() {
        int[] w = new int[1];
        int[] h = new int[1];
        glfwGetFramebufferSize(window, w, h);
        return Renderer.read(w[0], h[0]);
    }

    private static void panel(String title, int[] at) {
        ImGui.setNextWindowPos(at[0], at[1], ImGuiCond.FirstUseEver);
        ImGui.setNextWindowSize(at[2], at[3], ImGuiCond.FirstUseEver);
        ImGui.begin(title);
    }

    private void cpu(Session session, MachineView m) {
        panel("CPU", CPU_PANEL);
        lines(CpuPanel.registers(m));
        ImGui.separator();
        lines(CpuPanel.disassembly(m, (int) m.value("cpu.pc"), 10));
        ImGui.separator();
        boolean paused = session.paused();
        if (ImGui.button(paused ? "Continue" : "Pause")) {
            session.setPaused(!paused);
            message = "";
        }
        ImGui.sameLine();
        boolean lockstep = session.lockstep() != null;
        if (ImGui.button("Instruction")) {
            step(session, lockstep, () -> debugger.stepInstruction(session.console()));
        }
        ImGui.sameLine();
        if (ImGui.button("Scanline")) {
            step(session, lockstep, () -> report(debugger.stepScanline(session.console())));
        }
        ImGui.sameLine();
        if (ImGui.button("Frame")) {
            step(session, lockstep, () -> report(debugger.stepFrame(session.console())));
        }
        if (ImGui.button("Run to the next divergence")) {
            if (!lockstep) {
                session.act(Action.LOCKSTEP);
            }
            session.setPaused(false);
            message = "running in lockstep: a divergence pauses the game";
        }
        if (!message.isEmpty()) {
            ImGui.textWrapped(message);
        }
        ImGui.end();
    }

    private void step(Session session, boolean lockstep, Runnable step) {
        if (lockstep) {
            message = "stepping works on one engine: F10 leaves lockstep mode";
            return;
        }
        session.setPaused(true);
        message = "";
        step.run();
    }

    private void report(boolean finished) {
        if (!finished) {
            message = "breakpoint: " + debugger.stopReason();
        }
    }

    private void ppu(MachineView m) {
        panel("PPU", PPU_PANEL);
        lines(PpuPanel.lines(m));
        ImGui.end();
    }

    private void breakpoints() {
        panel("Breakpoints", BREAKPOINTS_PANEL);
        ImGui.setNextItemWidth(80);
        ImGui.inputText("##address", breakAddress);
        ImGui.sameLine();
        ImGui.setNextItemWidth(80);
        ImGui.combo("##kind", breakKind, new String[] {"pc", "read", "write"});
        ImGui.sameLine();
        if (ImGui.button("Add")) {
            try {
                int a = Integer.parseInt(breakAddress.get().replace("$", "").trim(), 16);
                if (a < 0 || a > 0xFFFF) {
                    throw new NumberFormatException();
                }
                debugger.add(new Debugger.Breakpoint(Debugger.Kind.values()[breakKind.get()], a));
            } catch (NumberFormatException e) {
                message = breakAddress.get() + ": not a CPU address (hex 0000-FFFF)";
            }
        }
        for (Debugger.Breakpoint b : debugger.breakpoints()) {
            if (ImGui.smallButton("x##" + b)) {
                debugger.remove(b);
            }
            ImGui.sameLine();
            ImGui.text(b.toString());
        }
        ImGui.end();
    }

    private void memory(MachineView m) {
        panel("Memory", MEMORY_PANEL);
        if (ImGui.button("Follow writes")) {
            hex.follow();
        }
        ImGui.sameLine();
        ImGui.setNextItemWidth(60);
        ImGui.inputText("##pin", pinAddress);
        ImGui.sameLine();
        if (ImGui.button("Show")) {
            try {
                hex.pin(Integer.parseInt(pinAddress.get().replace("$", "").trim(), 16));
            } catch (NumberFormatException e) {
                message = pinAddress.get() + ": not a CPU address";
            }
        }
        for (String line : hex.lines(m)) {
            if (line.indexOf('*') >= 0) {
                ImGui.textColored(0.5f, 1f, 0.5f, 1f, line);
            } else {
                ImGui.text(line);
            }
        }
        ImGui.end();
    }

    private void images(MachineView m) {
        panel("Nametables", NAMETABLES_PANEL);
        lines(Nametables.caption(m));
        Nametables.render(m, colors, nametables.argb);
        nametables.show();
        ImGui.end();

        panel("Pattern tables", PATTERNS_PANEL);
        ImGui.setNextItemWidth(150);
        ImGui.sliderInt("palette", patternPalette, 0, 7);
        PatternTables.render(m, patternPalette[0], colors, patterns.argb);
        patterns.show();
        ImGui.end();

        panel("Palette", PALETTE_PANEL);
        PaletteRam.render(m, colors, palette.argb);
        palette.show();
        ImGui.end();

        panel("Sprites", SPRITES_PANEL);
        Sprites.render(m, colors, sprites.argb);
        sprites.show();
        List<String> list = Sprites.lines(m);
        ImGui.textUnformatted(Sprites.HEADING);
        ImGui.beginChild("list");
        for (String l : list) {
            ImGui.textUnformatted(l);
        }
        ImGui.endChild();
        ImGui.end();
    }

    private static void lines(List<String> lines) {
        for (String l : lines) {
            ImGui.textUnformatted(l);
        }
    }

    @Override
    public void close() {
        glfwMakeContextCurrent(window);
        GL.createCapabilities();
        for (Image i : new Image[] {nametables, patterns, sprites, palette}) {
            i.delete();
        }
        imguiGl3.shutdown();
        try {
            imguiGlfw.shutdown();
        } catch (NullPointerException e) {
            // The backend frees the mouse cursors it asked GLFW for, and fails on one the display
            // did not provide; the window it was attached to is destroyed below all the same.
        }
        ImGui.destroyContext();
        glfwDestroyWindow(window);
        glfwMakeContextCurrent(mainWindow);
        GL.createCapabilities();
    }

    /** A viewer's picture and its texture. */
    private static final class Image {
        final int width;
        final int height;
        final int[] argb;
        int texture;

        Image(int width, int height) {
            this.width = width;
            this.height = height;
            this.argb = new int[width * height];
        }

        void create() {
            texture = glGenTextures();
            glBindTexture(GL_TEXTURE_2D, texture);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV,
                    (java.nio.IntBuffer) null);
        }

        /** Uploads the picture and places it at its size in the current ImGui window. */
        void show() {
            glBindTexture(GL_TEXTURE_2D, texture);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, argb);
            ImGui.image(texture, width, height);
        }

        void delete() {
            glDeleteTextures(texture);
        }
    }

    /** Formats a CPU address for messages. */
    static String hex4(int a) {
        return String.format(Locale.ROOT, "$%04X", a & 0xFFFF);
    }

    /** The console shown (for tests). */
    static Console consoleOf(Session s) {
        return s.console();
    }
}
