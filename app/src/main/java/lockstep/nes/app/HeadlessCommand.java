package lockstep.nes.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.apu.WavWriter;
import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.verifier.MovieInput;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieException;
import lockstep.nes.core.snapshot.RomId;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.ppu.Ppu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep headless [ROM]}: runs frames without a window. */
@Command(name = "headless", mixinStandardHelpOptions = true,
        description = {"Run a ROM for N frames without a window and print a one-line summary.",
            "Summary: frames=N cycles=C fps=F state=<SHA-256 of the canonical snapshot> rom=ROM"},
        footerHeading = "%nExamples:%n", footer = {"  lockstep headless", "  lockstep headless game.nes --frames 3000 --screenshot last.png", "  lockstep headless game.nes --save-state s.lss", "  lockstep headless game.nes --load-state s.lss --frames 60"})
public final class HeadlessCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ROM",
            description = "iNES / NES 2.0 file, or builtin:demo (default: the built-in demo ROM)")
    Path rom;

    @Option(names = "--frames", paramLabel = "N", defaultValue = "600", description = "frames to run (default ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--movie", paramLabel = "FILE.fm2", description = "FCEUX movie whose input is applied frame by frame")
    Path movie;

    @Option(names = "--dump-ram", paramLabel = "FILE", description = "write the 2 KiB CPU RAM at the end")
    Path dumpRam;

    @Option(names = "--screenshot", paramLabel = "FILE.png", description = "write the last frame as PNG")
    Path screenshot;

    @Option(names = "--json", paramLabel = "FILE.json", description = "write a JSON summary")
    Path json;

    @Option(names = "--no-battery", description = "do not load or save the battery-backed RAM (<rom>.sav)")
    boolean noBattery;

    @Option(names = "--wav", paramLabel = "FILE.wav", description = "write the audio (16-bit mono PCM) as WAV")
    Path wav;

    @Option(names = "--save-state", paramLabel = "FILE", description = "write a snapshot after the last frame")
    Path saveState;

    @Option(names = "--load-state", paramLabel = "FILE", description = "load a snapshot before the first frame")
    Path loadState;

    /** A failure that ends the command with one line on stderr and exit code 2. */
    private static final class Fail extends Exception {
        Fail(String message) {
            super(message);
        }
    }

    @Override
    public Integer call() {
        try {
            return run();
        } catch (Fail e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private int run() throws Fail {
        if (frames < 0) {
            throw new Fail(OptionRange.atLeast("--frames", 0, frames));
        }
        Cartridge cart = cartridge();
        Console console;
        try {
            console = Console.create(cart);
        } catch (RomFormatException e) {
            throw new Fail(e.getMessage());
        }
        BatterySave battery = null;
        if (rom != null && cart.battery() && !noBattery) {
            battery = new BatterySave(rom, cart);
            try {
                Path from = battery.load(console.mapper());
                if (from != null) {
                    System.err.println("headless: battery RAM loaded from " + from);
                }
            } catch (IOException e) {
                throw new Fail(battery.target() + ": cannot read the battery save (" + e.getMessage() + ")");
            }
        }
        Movie input = null;
        if (movie != null) {
            try {
                input = Fm2.read(movie);
            } catch (MovieException e) {
                throw new Fail(e.getMessage());
            }
        }
        Snapshots snapshots = new Snapshots(console);
        if (loadState != null) {
            byte[] data = readFile(loadState, "state");
            try {
                snapshots.load(data, data.length, loadState.toString());
            } catch (SnapshotException e) {
                throw new Fail(e.getMessage());
            }
        }

        long startFrame = console.frame();
        long t0 = System.nanoTime();
        long lastReport = t0;
        MovieInput movieInput = input == null ? null : new MovieInput(input);
        WavWriter wavOut = null;
        short[] audioBuffer = null;
        if (wav != null) {
            try {
                wavOut = new WavWriter(wav, console.apu().audio().sampleRate());
            } catch (IOException e) {
                throw new Fail(wav + ": cannot write (" + e.getMessage() + ")");
            }
            audioBuffer = new short[16384];
            console.apu().audio().read(audioBuffer, 0, audioBuffer.length);
        }
        for (int i = 0; i < frames; i++) {
            if (movieInput != null) {
                movieInput.apply((int) (startFrame + i), console);
            }
            console.runFrame();
            if (wavOut != null) {
                writeAudio(console, wavOut, audioBuffer);
            }
            long now = System.nanoTime();
            if (now - lastReport > 2_000_000_000L) {
                lastReport = now;
                System.err.printf(Locale.ROOT, "headless: frame %d/%d%n", i + 1, frames);
            }
        }
        double seconds = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
        if (wavOut != null) {
            try {
                wavOut.close();
            } catch (IOException e) {
                throw new Fail(wav + ": cannot write (" + e.getMessage() + ")");
            }
        }
        double fps = frames / seconds;

        if (battery != null) {
            try {
                System.err.println("headless: battery RAM saved to " + battery.save(console.mapper()));
            } catch (IOException e) {
                throw new Fail(battery.target() + ": cannot write the battery save (" + e.getMessage() + ")");
            }
        }
        if (dumpRam != null) {
            writeFile(dumpRam, console.ram().array().clone(), "RAM dump");
        }
        if (screenshot != null) {
            writeFile(screenshot, FrameImage.png(console.ppu().frame(), Palette.ntsc()), "screenshot");
        }
        if (saveState != null) {
            writeFile(saveState, snapshots.save(), "state");
        }
        String state = snapshots.stateHash();
        if (json != null) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode o = mapper.createObjectNode();
            o.put("rom", cart.name());
            o.put("romSha256", RomId.hex(RomId.sha256(cart)));
            o.put("frames", frames);
            o.put("cycles", console.cycles());
            o.put("fps", Math.round(fps * 10) / 10.0);
            o.put("state", state);
            o.put("frameHash", frameHash(console.ppu().frame()));
            try {
                writeFile(json, mapper.writeValueAsBytes(o), "JSON summary");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new Fail(json + ": cannot encode JSON (" + e.getMessage() + ")");
            }
        }
        System.out.printf(Locale.ROOT, "frames=%d cycles=%d fps=%.1f state=%s rom=%s%n", frames, console.cycles(), fps,
                state, RomArg.name(rom));
        if (rom == null) {
            System.err.println("headless: next, play it in a window (lockstep run) or verify it with two engines "
                    + "(lockstep verify); give a ROM file to run your own");
        }
        return 0;
    }

    private void writeAudio(Console console, WavWriter out, short[] buffer) throws Fail {
        try {
            int n;
            while ((n = console.apu().audio().read(buffer, 0, buffer.length)) > 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new Fail(wav + ": cannot write (" + e.getMessage() + ")");
        }
    }

    /** SHA-256 (hex) of the picture: 256x240 9-bit values, two bytes each, big-endian. */
    static String frameHash(short[] frame) {
        byte[] b = new byte[Ppu.WIDTH * Ppu.HEIGHT * 2];
        for (int i = 0; i < Ppu.WIDTH * Ppu.HEIGHT; i++) {
            b[2 * i] = (byte) (frame[i] >> 8);
            b[2 * i + 1] = (byte) frame[i];
        }
        var md = RomId.sha256();
        return RomId.hex(md.digest(b));
    }

    private Cartridge cartridge() throws Fail {
        try {
            return RomArg.load(rom);
        } catch (RomFormatException e) {
            throw new Fail(e.getMessage());
        }
    }

    private static byte[] readFile(Path file, String what) throws Fail {
        if (!Files.isRegularFile(file)) {
            throw new Fail(file + ": " + (Files.exists(file) ? "not a file" : "not found"));
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new Fail(file + ": cannot read " + what + " (" + e.getMessage() + ")");
        }
    }

    /** Writes atomically: a temporary file beside the target, then a rename. */
    private static void writeFile(Path file, byte[] data, String what) throws Fail {
        try {
            AtomicFile.write(file, data);
        } catch (IOException e) {
            throw new Fail(file + ": cannot write " + what + " (" + e.getMessage() + ")");
        }
    }
}
