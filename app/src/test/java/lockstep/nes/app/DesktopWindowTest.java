package lockstep.nes.app;


import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import lockstep.nes.core.Console;
import lockstep.nes.core.TestRoms;
import lockstep.nes.core.TestTools;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.desktop.debug.MachineView;
import lockstep.nes.desktop.debug.Nametables;
import lockstep.nes.desktop.debug.PaletteRam;
import lockstep.nes.desktop.debug.PatternTables;
import lockstep.nes.desktop.debug.Sprites;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.ppu.Ppu;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop app in a real window: {@code lockstep run} under Xvfb (Mesa's software OpenGL),
 * exiting after N frames with the window's framebuffer saved, compared pixel for pixel with the
 * headless engine's frame N scaled by nearest neighbour. Needs Xvfb (.ci/run installs it): a
 * missing Xvfb fails under CI=true and skips elsewhere.
 */
class DesktopWindowTest {
    private static Process xvfb;
    private static String display;

    @TempDir
    Path dir;

    /** Extra environment for the next runs. */
    private final Map<String, String> extraEnv = new java.util.HashMap<>();

    @BeforeAll
    static void startXvfb() throws Exception {
        String bin = TestTools.require("Xvfb", "apt-get install xvfb libgl1-mesa-dri libglx-mesa0");
        for (int n = 90; n < 190 && xvfb == null; n++) {
            if (Files.exists(Path.of("/tmp/.X11-unix/X" + n)) || Files.exists(Path.of("/tmp/.X" + n + "-lock"))) {
                continue;
            }
            Process p = new ProcessBuilder(bin, ":" + n, "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            for (int i = 0; i < 100 && p.isAlive() && !Files.exists(Path.of("/tmp/.X11-unix/X" + n)); i++) {
                Thread.sleep(50);
            }
            if (p.isAlive() && Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
                xvfb = p;
                display = ":" + n;
            } else {
                p.destroy();
            }
        }
        assertNotNull(xvfb, "could not start Xvfb on any display :90-:189");
    }

    @AfterAll
    static void stopXvfb() throws Exception {
        if (xvfb != null) {
            xvfb.destroy();
            xvfb.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private record Run(int exit, String err) {
    }

    /** {@code lockstep ARGS} in its own JVM with the Xvfb display and private config/data folders. */
    private Run lockstep(String displayName, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.remove("WAYLAND_DISPLAY");
        if (displayName == null) {
            env.remove("DISPLAY");
        } else {
            env.put("DISPLAY", displayName);
        }
        env.put("XDG_CONFIG_HOME", dir.resolve("config").toString());
        env.put("XDG_DATA_HOME", dir.resolve("data").toString());
        env.remove("ALSOFT_DRIVERS");
        env.putAll(extraEnv);
        Path errFile = dir.resolve("stderr-" + System.nanoTime() + ".txt");
        pb.redirectError(errFile.toFile());
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("lockstep " + String.join(" ", args) + " did not exit within 180 s");
        }
        return new Run(p.exitValue(), Files.readString(errFile, StandardCharsets.UTF_8));
    }

    private static int[] headlessFrame(Cartridge cart, int frames) throws Exception {
        Console c = Console.create(cart);
        for (int i = 0; i < frames; i++) {
            c.runFrame();
        }
        int[] rgb = new int[Ppu.WIDTH * Ppu.HEIGHT];
        FrameImage.toRgb(c.ppu().frame(), Palette.ntsc(), rgb);
        return rgb;
    }

    /** Every window pixel equals the headless pixel it scales from. */
    private static void assertScaledExactly(int[] rgb, BufferedImage img, int scale, String what) {
        assertEquals(Ppu.WIDTH * scale, img.getWidth(), what + ": width");
        assertEquals(Ppu.HEIGHT * scale, img.getHeight(), what + ": height");
        int bad = 0;
        String first = null;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int want = rgb[(y / scale) * Ppu.WIDTH + x / scale] & 0xFFFFFF;
                int got = img.getRGB(x, y) & 0xFFFFFF;
                if (want != got) {
                    if (first == null) {
                        first = String.format("(%d,%d) window %06x, headless %06x", x, y, got, want);
                    }
                    bad++;
                }
            }
        }
        assertEquals(0, bad, what + ": " + bad + " pixels differ, first at " + first);
    }

    private void windowMatchesHeadless(Path rom, Cartridge cart, int frames, int scale) throws Exception {
        Path png = dir.resolve("window.png");
        Run r = lockstep(display, "run", rom.toString(), "--exit-after-frames", String.valueOf(frames),
                "--scale", String.valueOf(scale), "--square-pixels", "--no-osd", "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("audio: "), "says which audio it uses: " + r.err());
        // Paced by the audio clock: never faster than the NES. The clock starts after the first
        // frame, and the sound queue takes up to three frames ahead, so five frames' lead is allowed.
        var m = java.util.regex.Pattern.compile("lockstep: (\\d+) frames in [0-9.]+ s \\(([0-9.]+) fps\\)").matcher(r.err());
        assertTrue(m.find(), r.err());
        assertEquals(frames, Integer.parseInt(m.group(1)));
        double limit = frames / ((frames - 5) / 60.0988) * 1.02;
        assertTrue(Double.parseDouble(m.group(2)) < limit, "paced at 60.0988 Hz: " + m.group(0) + ", limit " + limit);
        BufferedImage img = ImageIO.read(png.toFile());
        Path keep = Path.of("target", "desktop-window-" + rom.getFileName() + ".png");
        Files.createDirectories(keep.getParent());
        Files.copy(png, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertScaledExactly(headlessFrame(cart, frames), img, scale, rom.getFileName() + " frame " + frames);
    }

    /** The top-left corner where {@code want} (w x h, 0xRRGGBB) appears in {@code img}, or null. */
    private static int[] find(BufferedImage img, int[] want, int w, int h) {
        for (int y = 0; y + h <= img.getHeight(); y++) {
            for (int x = 0; x + w <= img.getWidth(); x++) {
                if (matches(img, want, w, h, x, y)) {
                    return new int[] {x, y};
                }
            }
        }
        return null;
    }

    private static boolean matches(BufferedImage img, int[] want, int w, int h, int x0, int y0) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if ((img.getRGB(x0 + x, y0 + y) & 0xFFFFFF) != (want[y * w + x] & 0xFFFFFF)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The debugger's window on the demo ROM at frame 60: each viewer (nametables with the scroll
     * window, pattern tables, sprites, palette RAM) appears in it pixel for pixel as the viewers
     * draw the headless engine's machine at that frame.
     */
    @Test
    void theDebuggerWindowShowsEveryViewerOfTheMachine() throws Exception {
        Path rom = Files.write(dir.resolve("demo.nes"), DemoRom.bytes());
        Path png = dir.resolve("debugger.png");
        Run r = lockstep(display, "run", rom.toString(), "--exit-after-frames", "60", "--no-audio",
                "--debugger-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        Path keep = Path.of("target", "desktop-debugger.png");
        Files.createDirectories(keep.getParent());
        Files.copy(png, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        Console c = Console.create(Cartridge.load(rom));
        for (int i = 0; i < 60; i++) {
            c.runFrame();
        }
        var m = MachineView.of(c);
        Palette colors = Palette.ntsc();
        int[] nt = new int[Nametables.WIDTH * Nametables.HEIGHT];
        Nametables.render(m, colors, nt);
        int[] pt = new int[PatternTables.WIDTH * PatternTables.HEIGHT];
        PatternTables.render(m, 0, colors, pt);
        int[] sp = new int[Sprites.WIDTH * Sprites.HEIGHT];
        Sprites.render(m, colors, sp);
        int[] pal = new int[PaletteRam.WIDTH * PaletteRam.HEIGHT];
        PaletteRam.render(m, colors, pal);
        assertNotNull(find(img, nt, Nametables.WIDTH, Nametables.HEIGHT),
                "the nametable viewer is not in the window");
        assertNotNull(find(img, pt, PatternTables.WIDTH, PatternTables.HEIGHT),
                "the pattern table viewer is not in the window");
        assertNotNull(find(img, sp, Sprites.WIDTH, Sprites.HEIGHT),
                "the sprite viewer is not in the window");
        assertNotNull(find(img, pal, PaletteRam.WIDTH, PaletteRam.HEIGHT),
                "the palette viewer is not in the window");
    }

    /** Xvfb's screen is 1280x1024: --scale 8 would open a 2340x1920 window; 4x (1170x960) fits. */
    @Test
    void theScaleNeverOpensAWindowLargerThanTheScreen() throws Exception {
        Path png = dir.resolve("scaled.png");
        Run r = lockstep(display, "run", "--exit-after-frames", "3", "--no-audio", "--scale", "8",
                "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("run: --scale 8 does not fit the screen: using 4"), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(960, img.getHeight());
        assertTrue(img.getWidth() <= 1280, "width " + img.getWidth());
    }

    /** --fullscreen (Alt+Enter's state at start) fills the monitor: a 1280x1024 framebuffer. */
    @Test
    void fullScreenFillsTheMonitor() throws Exception {
        Path png = dir.resolve("full.png");
        Run r = lockstep(display, "run", "--exit-after-frames", "3", "--no-audio", "--fullscreen",
                "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1280, img.getWidth());
        assertEquals(1024, img.getHeight());
    }

    @Test
    void theDemoRomInTheWindowIsTheHeadlessFrameScaled() throws Exception {
        Path rom = Files.write(dir.resolve("demo.nes"), DemoRom.bytes());
        windowMatchesHeadless(rom, Cartridge.load(rom), 45, 2);
    }

    /**
     * Two windows, a host and a joiner on loopback, play 90 netplay frames and end together: both
     * say they waited or joined, and both summaries end in the same state.
     */
    @Test
    void twoWindowsPlayANetplaySessionToTheSameState() throws Exception {
        int port;
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0)) {
            port = s.getLocalPort();
        }
        java.util.concurrent.CompletableFuture<Run> host = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return lockstep(display, "run", "builtin:demo", "--exit-after-frames", "90", "--no-audio",
                        "--netplay-host", "--port", String.valueOf(port), "--delay", "auto");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(1500);
        Run join = lockstep(display, "run", "builtin:demo", "--exit-after-frames", "90", "--no-audio",
                "--netplay-join", "127.0.0.1:" + port);
        Run h = host.get(200, TimeUnit.SECONDS);
        assertEquals(0, h.exit(), h.err());
        assertEquals(0, join.exit(), join.err());
        assertTrue(h.err().contains("run: netplay: waiting for a joiner on UDP port " + port), h.err());
        assertTrue(join.err().contains("run: netplay: joining 127.0.0.1:" + port), join.err());
        java.util.regex.Matcher mh = java.util.regex.Pattern.compile("netplay host: 90 frames, .*state sha256 (\\S+)").matcher(h.err());
        java.util.regex.Matcher mj = java.util.regex.Pattern.compile("netplay join: 90 frames, .*state sha256 (\\S+)").matcher(join.err());
        assertTrue(mh.find(), h.err());
        assertTrue(mj.find(), join.err());
        assertEquals(mh.group(1), mj.group(1));
    }

    @Test
    void theRunFlagsOfNetplayAreCheckedBeforeAWindowOpens() throws Exception {
        Run r = lockstep(display, "run", "--netplay-join", "nowhere", "--no-audio");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("error: --netplay-join 'nowhere': expected HOST:PORT"), r.err());
        r = lockstep(display, "run", "--delay", "3", "--no-audio");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("error: --delay is the host's: give it with --netplay-host"), r.err());
    }

    @Test
    void aWindowScreenshotOnAFullDiskIsAnErrorAndTheDeviceStays() throws Exception {
        Path full = dir.resolve("full");
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mknod", full.toString(), "c", "1", "7")
                .start().waitFor() == 0, "mknod c 1 7 is allowed (root)");
        Run r = lockstep(display, "run", "--exit-after-frames", "2", "--no-audio", "--window-screenshot",
                full.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(full + ": cannot write (No space left on device)"), r.err());
        assertFalse(r.err().contains("written"), r.err());
        assertFalse(Files.isRegularFile(full), "still a device");
    }

    @Test
    void withoutARomAndNoLastRomItPlaysTheDemoAndSaysSo() throws Exception {
        Run r = lockstep(display, "run", "--exit-after-frames", "2", "--no-audio");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("run: playing lockstep-demo.nes (built in): no ROM given and none played before"),
                r.err());
        r = lockstep(display, "run", "builtin:demo", "--exit-after-frames", "2", "--no-audio");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("run: playing lockstep-demo.nes (built in)"), r.err());
    }

    /**
     * OpenAL Soft's null backend (a device that plays into nothing at the real rate) stands in
     * for a sound card, so the OpenAL sink itself streams here: buffers queued, played,
     * reclaimed; the picture is the same.
     */
    @Test
    void theOpenAlSinkStreamsToOpenAlSoftsNullDevice() throws Exception {
        extraEnv.put("ALSOFT_DRIVERS", "null");
        Path rom = Files.write(dir.resolve("demo.nes"), DemoRom.bytes());
        Path png = dir.resolve("openal.png");
        Run r = lockstep(display, "run", rom.toString(), "--exit-after-frames", "40", "--scale", "1", "--square-pixels",
                "--no-osd", "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("audio: OpenAL: "), r.err());
        assertScaledExactly(headlessFrame(Cartridge.load(rom), 40), ImageIO.read(png.toFile()), 1, "with OpenAL");
    }

    @Test
    void aTestRomWithMidFramePaletteChangesMatchesToo() throws Exception {
        Path rom = TestRoms.require("full_palette/full_palette.nes");
        windowMatchesHeadless(rom, Cartridge.load(rom), 45, 3);
    }

    @Test
    void thePixelAspectWidensThePictureByEightSevenths() throws Exception {
        Path rom = Files.write(dir.resolve("demo.nes"), DemoRom.bytes());
        Path png = dir.resolve("wide.png");
        Run r = lockstep(display, rom.toString(), "--exit-after-frames", "10", "--scale", "2", "--no-osd",
                "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(Math.round(512 * 8 / 7.0), img.getWidth());
        assertEquals(480, img.getHeight());
    }

    private static int redPixels(BufferedImage img, int yFrom, int yTo) {
        int red = 0;
        for (int y = yFrom; y < yTo; y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int c = img.getRGB(x, y);
                if ((c >> 16 & 0xFF) > 200 && (c >> 8 & 0xFF) < 128 && (c & 0xFF) < 128) {
                    red++;
                }
            }
        }
        return red;
    }

    @Test
    void lockstepModeShowsTheDivergenceReportOverTheGame() throws Exception {
        Path rom = Files.write(dir.resolve("demo.nes"), DemoRom.bytes());
        Path png = dir.resolve("divergence.png");
        Run r = lockstep(display, rom.toString(), "--inject", "ram-bitflip@200000:B:$0300:2", "--exit-after-frames", "20",
                "--window-screenshot", png.toString());
        assertEquals(0, r.exit(), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(redPixels(img, 0, 120) > 500, "the red report at the top: " + redPixels(img, 0, 120));
        Path keep = Path.of("target", "desktop-window-divergence.png");
        Files.copy(png, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aBadRomShowsItsErrorInTheWindowAndExitsTwo() throws Exception {
        Path rom = Files.writeString(dir.resolve("broken.nes"), "this is not a ROM");
        Path png = dir.resolve("error.png");
        Run r = lockstep(display, "run", rom.toString(), "--exit-after-frames", "5", "--window-screenshot", png.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("broken.nes"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        int red = redPixels(img, 0, img.getHeight());
        assertTrue(red > 200, "the error text is drawn in the window (" + red + " red pixels)");
    }

    @Test
    void withoutADisplayItSaysSoInOneLine() throws Exception {
        Run r = lockstep(null, "run", "--exit-after-frames", "1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("error: cannot open a window"), r.err());
        assertTrue(r.err().contains("DISPLAY is not set"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aFileAsFirstArgumentMeansRun() {
        Set<String> commands = Set.of("run", "headless");
        assertArrayEquals(new String[] {"run", "game.nes", "--scale", "2"},
                RunCommand.implicit(new String[] {"game.nes", "--scale", "2"}, commands));
        assertArrayEquals(new String[] {"headless", "x.nes"}, RunCommand.implicit(new String[] {"headless", "x.nes"}, commands));
        assertArrayEquals(new String[] {"--help"}, RunCommand.implicit(new String[] {"--help"}, commands));
        assertArrayEquals(new String[] {"bogus"}, RunCommand.implicit(new String[] {"bogus"}, commands));
        String self = new File("pom.xml").getAbsolutePath();
        assertEquals("run", RunCommand.implicit(new String[] {self}, commands)[0]);
    }

    @Test
    void runRefusesBadOptionsWithOneLine() throws IOException {
        Cli.Result r = Cli.run("run", "--scale", "9");
        assertEquals(2, r.exit());
        assertEquals("error: --scale must be 1..8, not 9", r.err().strip());
        r = Cli.run("run", "--window-screenshot", "x.png");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("error: --window-screenshot is taken at exit"), r.err());
        r = Cli.run("run", "--inject", "nonsense");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("error: bad --inject 'nonsense'"), r.err());
    }
}
