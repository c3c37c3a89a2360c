package lockstep.nes.app;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import lockstep.nes.core.Console;
import lockstep.nes.core.apu.WavWriter;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.nsf.NsfFile;
import lockstep.nes.core.nsf.NsfFormatException;
import lockstep.nes.core.nsf.NsfPlayer;
import lockstep.nes.ppu.Region;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep nsf FILE}: lists an NSF's tags and tracks and plays one headless. */
@Command(name = "nsf", mixinStandardHelpOptions = true,
        description = {"Play a track of an NSF or NSFe music file without a window; list its tags and tracks.",
            "Summary: track=N seconds=S cycles=C rom=FILE"},
        footerHeading = "%nExamples:%n", footer = {"  lockstep nsf music.nsf", "  lockstep nsf music.nsf --track 3 --seconds 90 --wav track3.wav"})
public final class NsfCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = ".nsf or .nsfe file (also inside .gz or .zip)")
    Path file;

    @Option(names = "--track", paramLabel = "N", description = "track to play, from 1 (default: the file's first track)")
    Integer track;

    /** Seconds played when neither --seconds nor the file gives a length. */
    static final double DEFAULT_SECONDS = 30;

    @Option(names = "--seconds", paramLabel = "S", description = "seconds to play (default: the track's length from an "
            + "NSFe file, else 30)")
    Double seconds;

    @Option(names = "--wav", paramLabel = "OUT.wav", description = "write the audio (16-bit mono PCM) as WAV")
    Path wav;

    @Option(names = "--region", paramLabel = "ntsc|pal", description = "play on this console (default: the file's; NTSC "
            + "for a file that plays on both)")
    String region;

    @Override
    public Integer call() throws BadInput {
        try (Interrupt signal = Interrupt.watch()) {
            return run();
        }
    }

    private int run() throws BadInput {
        NsfFile f = read(file);
        if (track != null && (track < 1 || track > f.songs())) {
            throw new BadInput("--track must be between 1 and " + f.songs() + " (" + file + " has " + f.songs()
                    + " tracks), not " + track);
        }
        Region r = null;
        if (region != null) {
            r = Region.byId(region);
            if (r == null || r == Region.DENDY) {
                throw new BadInput("--region must be ntsc or pal, not '" + region + "'");
            }
        }
        Outputs.check(wav, "--wav");
        final int song = track != null ? track - 1 : f.firstSong();
        // An NSFe track plays for its length, then fades out over its fade (none without one).
        final double fade = seconds == null && f.trackLength(song) > 0 && f.trackFade(song) > 0
                ? f.trackFade(song) / 1000.0 : 0;
        final double length = seconds != null ? seconds
                : f.trackLength(song) > 0 ? f.trackLength(song) / 1000.0 + fade : DEFAULT_SECONDS;
        if (!(length > 0) || length > 24 * 3600) {
            throw new BadInput("--seconds must be above 0 and at most 86400, not " + seconds);
        }
        printInfo(f, System.out);
        Console console = NsfPlayer.console(f, song, r);
        WavWriter out = null;
        short[] buffer = new short[16384];
        if (wav != null) {
            try {
                out = new WavWriter(wav, console.apu().audio().sampleRate());
            } catch (IOException e) {
                throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
            }
        }
        console.apu().audio().read(buffer, 0, buffer.length);
        final long cycles = (long) (length * console.region().cpuHz());
        final int rate = console.apu().audio().sampleRate();
        final long fadeFrom = (long) ((length - fade) * rate);
        final long fadeSamples = (long) (fade * rate);
        long written = 0;
        while (console.cycles() < cycles && !Interrupt.requested()) {
            console.runFrame();
            int n;
            while ((n = console.apu().audio().read(buffer, 0, buffer.length)) > 0) {
                fadeOut(buffer, n, written, fadeFrom, fadeSamples);
                written += n;
                if (out != null) {
                    try {
                        out.write(buffer, 0, n);
                    } catch (IOException e) {
                        throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
                    }
                }
            }
        }
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                throw new BadInput(wav + ": cannot write (" + e.getMessage() + ")");
            }
        }
        System.out.printf(Locale.ROOT, "track=%d seconds=%.1f cycles=%d rom=%s%n", song + 1,
                console.cycles() / console.region().cpuHz(), console.cycles(), file);
        return Interrupt.requested() ? ExitCodes.SIGINT : 0;
    }

    /**
     * Samples {@code 0..n-1} of {@code buffer}, the {@code first}th sample of the track on, scaled
     * down linearly to silence over {@code length} samples from sample {@code from} (none when
     * {@code length} is 0): the NSFe fade after a track's time.
     */
    static void fadeOut(short[] buffer, int n, long first, long from, long length) {
        if (length <= 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            final long into = first + i - from;
            if (into > 0) {
                final long left = Math.max(0, length - into);
                buffer[i] = (short) (buffer[i] * left / length);
            }
        }
    }

    /** The NSF in {@code file} (unpacked from .gz or .zip); one line naming the file and field when bad. */
    static NsfFile read(Path file) throws BadInput {
        try {
            RomFile.Image image = RomFile.read(file, null);
            return NsfFile.parse(image.name(), image.bytes());
        } catch (RomFormatException | NsfFormatException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** The tags and the track list of {@code f} ({@code info} prints the same for an NSF). */
    static void printInfo(NsfFile f, PrintStream out) {
        line(out, "File", f.fileName());
        line(out, "Format", f.trackNames().isEmpty() && f.trackMillis().length == 0 ? "NSF" : "NSF (NSFe tags)");
        line(out, "Title", f.title());
        line(out, "Artist", f.artist());
        line(out, "Copyright", f.copyright());
        line(out, "Region", f.dual() ? "NTSC and PAL" : f.pal() ? "PAL" : "NTSC");
        line(out, "Play rate", String.format(Locale.ROOT, "%.4f Hz NTSC, %.4f Hz PAL",
                1e6 / (f.ntscPeriod() != 0 ? f.ntscPeriod() : NsfFile.NTSC_DEFAULT_PERIOD),
                1e6 / (f.palPeriod() != 0 ? f.palPeriod() : NsfFile.PAL_DEFAULT_PERIOD)));
        line(out, "Chips", f.chipNames());
        line(out, "Load", String.format("$%04X init $%04X play $%04X%s", f.load(), f.init(), f.play(),
                f.bankSwitched() ? " (bank-switched)" : ""));
        line(out, "Tracks", f.songs() + " (first: " + (f.firstSong() + 1) + ")"
                + (f.playlist().length > 0 ? ", in the file's playlist order" : ""));
        // Listed in the order they play: an NSFe playlist's, else every track in turn.
        for (int i : f.order()) {
            String name = f.trackName(i);
            int ms = f.trackLength(i);
            int fadeMs = f.trackFade(i);
            out.printf(Locale.ROOT, "  %3d  %s%s%n", i + 1, name.isEmpty() ? "-" : name,
                    ms > 0 ? String.format(Locale.ROOT, "  (%d:%02d%s)", ms / 60000, ms / 1000 % 60,
                            fadeMs > 0 ? String.format(Locale.ROOT, ", fade %d.%d s", fadeMs / 1000, fadeMs / 100 % 10)
                                    : "") : "");
        }
    }

    private static void line(PrintStream out, String key, String value) {
        out.printf("%-12s %s%n", key + ":", value);
    }
}
