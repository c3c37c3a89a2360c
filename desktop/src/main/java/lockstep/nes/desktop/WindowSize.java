package lockstep.nes.desktop;

import static org.lwjgl.glfw.GLFW.*;

import lockstep.nes.ppu.Ppu;
import org.lwjgl.glfw.GLFWVidMode;

/**
 * The window's size and mode: the scale (1x to {@link #MAX_SCALE}x) and pixel aspect it is
 * sized for, kept within the screen, and full screen on the primary monitor and back.
 */
final class WindowSize {
    static final int MAX_SCALE = 8;

    private final Osd osd;
    private final boolean vsync;
    private long window;
    private int scale;
    private boolean aspect;
    private boolean fullscreen;
    private final int[] windowedX = new int[1];
    private final int[] windowedY = new int[1];

    WindowSize(int scale, boolean aspect, boolean vsync, Osd osd) {
        this.scale = Math.max(1, Math.min(MAX_SCALE, scale));
        this.aspect = aspect;
        this.vsync = vsync;
        this.osd = osd;
    }

    int scale() {
        return scale;
    }

    boolean aspect() {
        return aspect;
    }

    /** The scale made to fit the screen before the window opens; the message when it had to shrink, else null. */
    String fitBeforeOpening() {
        int fit = largestScaleOnScreen();
        if (scale <= fit) {
            return null;
        }
        String msg = "--scale " + scale + " does not fit the screen: using " + fit;
        osd.post("scale " + scale + "x does not fit the screen: " + fit + "x");
        scale = fit;
        return msg;
    }

    /** The window this sizes, once opened. */
    void attach(long window) {
        this.window = window;
    }

    /** The aspect key: 8:7 pixels or square ones. */
    void toggleAspect() {
        aspect = !aspect;
        resize();
        osd.post(aspect ? "pixel aspect 8:7 (as on a TV)" : "square pixels");
    }

    /** The scale keys: one step up ({@code up}) or down. */
    void step(boolean up) {
        scale = Math.max(1, Math.min(MAX_SCALE, scale + (up ? 1 : -1)));
        resize();
        osd.post("scale " + scale + "x");
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
        return fit(w[0], h[0]);
    }

    /** The largest scale whose picture fits {@code width} x {@code height} pixels. */
    int fit(int width, int height) {
        int s = MAX_SCALE;
        while (s > 1 && (Renderer.pictureWidth(s, aspect) > width || Ppu.HEIGHT * s > height)) {
            s--;
        }
        return s;
    }

    /** Alt+Enter: the primary monitor in its present video mode, or back to the window. */
    void toggleFullscreen() {
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
        glfwSwapInterval(vsync ? 1 : 0);
    }
}
