package lockstep.nes.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.apu.WavWriter;
import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.cart.fds.DiskChanges;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.verifier.MovieInput;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieStart;
import lockstep.nes.core.snapshot.RomId;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.ppu.Ppu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep headless [ROM]}: runs frames without a window. */
@Command(name = "headless", mixinStandardHelpOptions = true,
        description = {"Run a ROM for N frames without a window and print a one-line summary.",
            "Summary: frames=N cycles=C fps=F state=<SHA-256 of the canonical snapshot> rom=ROM"},
        footerHeading = "%nExamples:%n", footer = {"  lockstep headless", "  lockstep headless game.nes --frames 3000 --screenshot last.png", "  lockstep headless game.nes --save-state s.lss", "  lockstep headless game.nes --load-state s.lss --frames 60"})
public final class HeadlessCommand implements Callable<Integer> {
    /** Whether a person reads the output (the next-command hint is for them); tests replace it. */
    static java.util.function.BooleanSupplier onTerminal = () -> System.console() != null;

    @Parameters(index = "0", arity = "0..1", paramLabel = "ROM",
            description = "iNES / NES 2.0 file, or builtin:demo (default: the built-in demo ROM)")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Mixin
    DiskOptions disk;

    @Mixin
    RegionOption region = new RegionOption();

    @Mixin
    CheatOption cheat = new CheatOption();

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

    @Option(names = "--battery", description = "load and save the battery-backed RAM in <rom>.sav (as the desktop app does); "
            + "for a disk image, what the game wrote to the disk, as a file of changes in the data folder")
    boolean battery;

    @Option(names = "--battery-file", paramLabel = "FILE", description = "load the battery-backed RAM from FILE (if it exists) "
            + "and save it there at the end")
    Path batteryFile;

    @Option(names = "--no-battery", description = "no battery RAM is loaded or saved (the default; accepted for scripts)")
    boolean noBattery;

    @Option(names = "--wav", paramLabel = "FILE.wav", description = "write the audio (16-bit mono PCM) as WAV")
    Path wav;

    @Option(names = "--save-state", paramLabel = "FILE", description = "write a snapshot after the last frame")
    Path saveState;

    @Option(names = "--load-state", paramLabel = "FILE", description = "load a snapshot before the first frame")
    Path loadState;

    @Override
    public Integer call() throws BadInput {
        try (Interrupt signal = Interrupt.watch()) {
            return run();
        }
    }

    private int run() throws BadInput {
        if (frames < 1) {
            throw new BadInput(OptionRange.atLeast("--frames", 1, frames));
        }
        if (batteryFile != null && (battery || noBattery)) {
            throw new BadInput("--battery-file names where the battery RAM goes: give it alone, without --battery or --no-battery");
        }
        if (battery && noBattery) {
            throw new BadInput("--battery and --no-battery contradict each other");
        }
        // The battery file is read and written back: the one output that may be an input.
        Path[] inputs = {rom, movie, loadState, batteryFile};
        Outputs.check(dumpRam, "--dump-ram", inputs);
        Outputs.check(screenshot, "--screenshot", inputs);
        Outputs.check(json, "--json", inputs);
        Outputs.check(saveState, "--save-state", inputs);
        Outputs.check(wav, "--wav", inputs);
        Outputs.check(batteryFile, "--battery-file", rom, movie, loadState);
        Movie input = movie != null ? RunInputs.movie(movie) : null;
        Cartridge cart = cheat.apply(RunInputs.cartridge(rom, archive.entry, disk, input, region));
        Console console = RunInputs.console(cart);
        // Battery RAM only when asked: the run depends on its inputs alone, and writes nothing
        // beside the ROM unless told to.
        BatterySave saves = null;
        DiskChanges diskChanges = null;
        if (cart.disk() != null && (battery || batteryFile != null)) {
            // A disk system: what the game wrote to its disk, kept beside the user's data.
            diskChanges = batteryFile != null ? DiskChanges.inFile(batteryFile, cart) : new DiskChanges(rom, cart);
            try {
                Path from = diskChanges.load((FdsBoard) console.mapper());
                if (from != null) {
                    System.err.println("headless: disk changes loaded from " + from);
                }
            } catch (IOException e) {
                throw new BadInput(diskChanges.file() + ": cannot read the disk changes (" + e.getMessage() + ")");
            }
        } else if (batteryFile != null) {
            saves = BatterySave.inFile(rom != null ? rom : Path.of(DemoRom.NAME), batteryFile);
        } else if (battery && rom != null) {
            saves = new BatterySave(rom, cart);
        }
        if (saves != null && !cart.battery()) {
            System.err.println("headless: the ROM has no battery-backed RAM; nothing is loaded or saved");
            saves = null;
        }
        if (saves != null) {
            try {
                Path from = saves.load(console.mapper());
                if (from != null) {
                    System.err.println("headless: battery RAM loaded from " + from);
                }
            } catch (IOException e) {
                throw new BadInput(saves.target() + ": cannot read the battery save (" + e.getMessage() + ")");
            }
        }
        Snapshots snapshots = new Snapshots(console);
        if (loadState != null) {
            RunInputs.loadState(snapshots, loadState);
            if (!cart.cheats().isEmpty()) {
                console.setCheats(cart.cheats()); // --cheat wins over the snapshot's cheats
            }
        }
        if (input != null) {
            RunInputs.startFromState(input, movie, console, loadState);
        }
        long startFrame = console.frame();
        // A movie recorded from a save state counts its frames from that state.
        long movieBase = input != null && MovieStart.fromState(input) ? startFrame : 0;
        long t0 = System.nanoTime();
        long lastReport = t0;
        MovieInput movieInput = input == null ? null : new MovieInput(input);
        WavWriter wavOut = null;
        short[] audioBuffer = null;
        if (wav != null) {
            try {
                wavOut = new WavWriter(wav, console.apu().audio().sampleRate());
            } catch (IOException e) {
                throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
            }
            audioBuffer = new short[16384];
            console.apu().audio().read(audioBuffer, 0, audioBuffer.length);
        }
        int done = 0;
        boolean interrupted = false;
        for (int i = 0; i < frames; i++) {
            if (Interrupt.requested()) {
                interrupted = true;
                break;
            }
            if (movieInput != null) {
                movieInput.apply((int) (startFrame + i - movieBase), console);
            }
            console.runFrame();
            done++;
            if (wavOut != null) {
                writeAudio(console, wavOut, audioBuffer);
            }
            long now = System.nanoTime();
            if (now - lastReport > 2_000_000_000L) {
                lastReport = now;
                System.err.printf(Locale.ROOT, "headless: frame %d/%d%n", i + 1, frames);
            }
        }
        interrupted |= Interrupt.requested();
        double seconds = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
        if (wavOut != null) {
            try {
                wavOut.close();
            } catch (IOException e) {
                throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
            }
        }
        double fps = done / seconds;

        if (diskChanges != null) {
            try {
                Path to = diskChanges.save((FdsBoard) console.mapper());
                System.err.println(to != null ? "headless: disk changes saved to " + to
                        : "headless: the disk is as loaded; no changes saved");
            } catch (IOException e) {
                throw new BadInput(diskChanges.file() + ": cannot write the disk changes (" + e.getMessage() + ")");
            }
        }
        if (saves != null) {
            try {
                System.err.println("headless: battery RAM saved to " + saves.save(console.mapper()));
            } catch (IOException e) {
                throw new BadInput(saves.target() + ": cannot write the battery save (" + e.getMessage() + ")");
            }
        }
        if (dumpRam != null) {
            writeFile(dumpRam, console.ram().array().clone(), "RAM dump");
        }
        if (screenshot != null) {
            writeFile(screenshot, FrameImage.png(console.ppu().frame(), Palette.of(console.region())), "screenshot");
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
            o.put("frames", done);
            if (interrupted) {
                o.put("interrupted", true);
            }
            o.put("cycles", console.cycles());
            o.put("fps", Math.round(fps * 10) / 10.0);
            o.put("state", state);
            o.put("frameHash", frameHash(console.ppu().frame()));
            try {
                writeFile(json, mapper.writeValueAsBytes(o), "JSON summary");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("cannot encode the JSON summary: " + e.getMessage(), e);
            }
        }
        System.out.printf(Locale.ROOT, "frames=%d cycles=%d fps=%.1f state=%s rom=%s%s%n", done, console.cycles(), fps,
                state, RomArg.name(rom), interrupted ? " interrupted" : "");
        // A hint for a person at a terminal; a script gets the summary line alone.
        if (rom == null && !interrupted && onTerminal.getAsBoolean()) {
            System.err.println("headless: next, play it in a window (lockstep run) or verify it with two engines "
                    + "(lockstep verify); give a ROM file to run your own");
        }
        return interrupted ? ExitCodes.SIGINT : ExitCodes.OK;
    }

    /** Drains the audio into the WAV; on a write error the WAV is dropped (nothing left at its path). */
    private void writeAudio(Console console, WavWriter out, short[] buffer) throws BadInput {
        try {
            int n;
            while ((n = console.apu().audio().read(buffer, 0, buffer.length)) > 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            try {
                out.abandon();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
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

    /** Writes by the output rule ({@link Outputs}). */
    private static void writeFile(Path file, byte[] data, String what) throws BadInput {
        Outputs.write(file, data, what);
    }
}
