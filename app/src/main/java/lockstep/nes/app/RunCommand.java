package lockstep.nes.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

import lockstep.nes.desktop.DesktopApp;
import lockstep.nes.desktop.netplay.NetplayLaunch;
import lockstep.nes.verifier.host.BuildId;
import lockstep.nes.verifier.FaultSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep run [ROM]}: plays a ROM in a window. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Play a ROM in a window (OpenGL picture, OpenAL sound, keyboard and gamepads).",
            "Without a ROM: the last ROM played, or the built-in demo ROM on a first run.",
            "Keys are in $XDG_CONFIG_HOME/lockstep/keys.json (default ~/.config/lockstep); F1 lists them."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep run", "  lockstep run game.nes --scale 4", "  lockstep run game.nes --lockstep --inject=ram-bitflip@500000:B"})
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ROM", description = "iNES / NES 2.0 file, or builtin:demo (default: the last ROM played, else the built-in demo ROM)")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Mixin
    DiskOptions disk;

    @Mixin
    RegionOption region = new RegionOption();

    @Mixin
    CheatOption cheat = new CheatOption();

    @Option(names = "--scale", paramLabel = "N", defaultValue = "3", description = "window scale 1-8 (default ${DEFAULT-VALUE})")
    int scale;

    @Option(names = "--square-pixels", description = "square pixels instead of the TV's 8:7 pixel aspect (F11 toggles)")
    boolean squarePixels;

    @Option(names = "--no-vsync", description = "do not wait for the display's vertical blank")
    boolean noVsync;

    @Option(names = "--no-audio", description = "no sound: a timer paces the game instead")
    boolean noAudio;

    @Option(names = "--no-osd", description = "no on-screen messages or overlays (errors are still shown)")
    boolean noOsd;

    @Option(names = "--lockstep", description = "start in lockstep mode (a second engine verifies every cycle; F10 toggles)")
    boolean lockstep;

    @Option(names = "--inject", paramLabel = "SPEC", description = "a fault for lockstep mode, as in 'lockstep verify' "
            + "(e.g. ram-bitflip@CYCLE:B:ADDR:BIT); repeatable")
    List<String> inject = new ArrayList<>();

    @Option(names = "--exit-after-frames", paramLabel = "N", description = "exit after N frames (for tests)")
    long exitAfterFrames;

    @Option(names = "--window-screenshot", paramLabel = "FILE.png",
            description = "at exit, save what the window shows (read from the OpenGL framebuffer)")
    Path windowScreenshot;

    @Option(names = "--fullscreen", description = "start in full screen on the primary monitor (Alt+Enter toggles)")
    boolean fullscreen;

    @Option(names = "--debugger", description = "open the debugger's window at start (F4 opens and closes it)")
    boolean debugger;

    @Option(names = "--debugger-screenshot", paramLabel = "FILE.png",
            description = "at exit, save what the debugger's window shows (opens it; needs --exit-after-frames)")
    Path debuggerScreenshot;

    @Option(names = "--netplay-host", description = "host a netplay session: wait for a joiner, then play as player 1 "
            + "(your keys and pad are player 1's; the line at the top shows ping, input delay and rollbacks)")
    boolean netplayHost;

    @Option(names = "--netplay-join", paramLabel = "HOST:PORT", description = "join a netplay host and play as player 2 "
            + "(with your player-1 keys and pad), with the host's delay and window")
    String netplayJoin;

    @Option(names = "--port", paramLabel = "P", description = "with --netplay-host: the UDP port (default 7845; 0: any free port)")
    Integer port;

    @Option(names = "--delay", paramLabel = "N|auto", description = "with --netplay-host: input delay in frames, or auto "
            + "(half the handshake's measured round trip, 1 to W-1; the default)")
    String delay;

    @Option(names = "--window", paramLabel = "W", description = "with --netplay-host: frames an engine may predict ahead (default 8)")
    Integer netplayWindow;

    @Override
    public Integer call() {
        if (scale < 1 || scale > 8) {
            System.err.println("error: " + OptionRange.between("--scale", 1, 8, scale));
            return 2;
        }
        if (exitAfterFrames < 0) {
            System.err.println("error: " + OptionRange.atLeast("--exit-after-frames", 0, exitAfterFrames));
            return 2;
        }
        if (windowScreenshot != null && exitAfterFrames == 0) {
            System.err.println("error: --window-screenshot is taken at exit: give --exit-after-frames N");
            return 2;
        }
        if (debuggerScreenshot != null && exitAfterFrames == 0) {
            System.err.println("error: --debugger-screenshot is taken at exit: give --exit-after-frames N");
            return 2;
        }
        try {
            // Checked before the window opens, as every command's outputs are.
            Outputs.check(windowScreenshot, "--window-screenshot", rom);
            Outputs.check(debuggerScreenshot, "--debugger-screenshot", rom);
        } catch (BadInput e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        List<FaultSpec> faults = new ArrayList<>();
        for (String f : inject) {
            try {
                faults.add(FaultSpec.parse(f));
            } catch (IllegalArgumentException e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
        }
        DesktopApp.Options o = new DesktopApp.Options();
        try {
            o.netplay = NetplayLaunch.fromFlags(netplayHost, netplayJoin, port, delay, netplayWindow);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        if (o.netplay != null) {
            o.buildId = BuildId.of("lockstep-nes/" + NetplayOptions.version());
        }
        o.rom = rom;
        o.entry = archive.entry;
        o.fdsBios = disk.bios;
        o.diskSide = disk.side;
        try {
            o.region = region.get();
            o.cheats = cheat.get();
        } catch (BadInput e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        o.scale = scale;
        o.aspect = !squarePixels;
        o.vsync = !noVsync;
        o.audio = !noAudio;
        o.osd = !noOsd;
        o.lockstep = lockstep || !faults.isEmpty();
        o.faults = faults;
        o.exitAfterFrames = exitAfterFrames;
        o.windowScreenshot = windowScreenshot;
        o.debugger = debugger;
        o.fullscreen = fullscreen;
        o.debuggerScreenshot = debuggerScreenshot;
        return DesktopApp.run(o);
    }

    /**
     * {@code lockstep ROM [options]} means {@code lockstep run ROM [options]}: a first argument
     * that is not a command or an option but names something that exists (a folder too, so that
     * its error is about the ROM, not a command it resembles), looks like a path, or looks like a
     * ROM file name.
     */
    static String[] implicit(String[] args, Set<String> commands) {
        if (args.length == 0) {
            return args;
        }
        String first = args[0];
        if (first.startsWith("-") || commands.contains(first)) {
            return args;
        }
        boolean file;
        try {
            file = Files.exists(Path.of(first));
        } catch (RuntimeException e) {
            file = false;
        }
        String lower = first.toLowerCase(Locale.ROOT);
        boolean romName = lower.endsWith(".nes") || lower.endsWith(".zip") || lower.endsWith(".gz");
        if (!file && !romName && !first.contains("/") && !first.contains(java.io.File.separator)) {
            return args;
        }
        String[] out = new String[args.length + 1];
        out[0] = "run";
        System.arraycopy(args, 0, out, 1, args.length);
        return out;
    }
}
