package lockstep.nes.app;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieStart;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.core.trace.TraceLine;
import lockstep.nes.core.trace.Tracer;
import lockstep.nes.verifier.MovieInput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep trace}: one line per instruction, in nestest's log form or as JSON lines. */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Print one line per instruction, in nestest's log form: PC, bytes, the disassembly with "
                + "the effective address and the value there, A X Y P SP, the PPU's scanline,dot and the CPU cycle.",
                "Registers at $2000-$401F are not read by the trace (their value shows as FF)."},
        footerHeading = "%nExamples:%n", footer = {
            "  lockstep trace nestest.nes --pc C000 --count 8991",
            "  lockstep trace game.nes --from f120 --count 500",
            "  lockstep trace game.nes --movie run.fm2 --from 1000000 --count 50 --json"})
public final class TraceCommand implements Callable<Integer> {
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

    @Option(names = "--from", paramLabel = "CYCLE|fFRAME",
            description = "start tracing at the first instruction from this CPU cycle, or (with f) from the start of this frame "
                    + "(default: the first instruction after power-on or the loaded state)")
    String from;

    @Option(names = "--count", paramLabel = "N", defaultValue = "100", description = "instructions to trace (default ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--pc", paramLabel = "ADDR",
            description = "after the reset sequence, continue at ADDR (hex) as nestest's automation mode does; "
                    + "the PPU column then counts from the CPU's first cycle, as nestest's log does")
    String pc;

    @Option(names = "--movie", paramLabel = "FILE.fm2", description = "FCEUX movie whose input is applied frame by frame")
    Path movie;

    @Option(names = "--load-state", paramLabel = "FILE", description = "load a snapshot before tracing")
    Path loadState;

    @Option(names = "--json", description = "print one JSON object per instruction instead of the nestest form")
    boolean json;

    @Override
    public Integer call() throws BadInput {
        if (count < 0) {
            throw new BadInput(OptionRange.atLeast("--count", 0, count));
        }
        Integer start = pc == null ? null : address(pc);
        if (start != null && loadState != null) {
            throw new BadInput("--pc starts from power-on: give it without --load-state");
        }
        // The region stays the ROM's (or --region's) even with a movie recorded in another.
        Cartridge cart = cheat.apply(RunInputs.cartridge(rom, archive.entry, disk, null, region));
        Console console = RunInputs.console(cart);
        MovieInput input = null;
        boolean movieFromState = false;
        if (movie != null) {
            Movie m = RunInputs.movie(movie);
            input = new MovieInput(m);
            movieFromState = MovieStart.fromState(m);
            if (movieFromState && start != null) {
                throw new BadInput(movie + ": the movie starts from its own save state: give it without --pc");
            }
            RunInputs.startFromState(m, movie, console, loadState);
        }
        if (loadState != null) {
            RunInputs.loadState(new Snapshots(console), loadState);
            if (!cart.cheats().isEmpty()) {
                console.setCheats(cart.cheats()); // --cheat wins over the snapshot's cheats
            }
        }
        MovieInput frames = input;
        // A movie recorded from a save state counts its frames from that state.
        long movieBase = movieFromState ? console.frame() : 0;
        Consumer<Console> beforeFrame = frames == null ? c -> { } : c -> frames.apply((int) (c.frame() - movieBase), c);
        beforeFrame.accept(console);
        Tracer tracer = new Tracer(console, beforeFrame);
        if (start != null) {
            tracer.startAt(start);
        }
        if (from != null) {
            if (from.startsWith("f") || from.startsWith("F")) {
                tracer.skipToFrame(number(from.substring(1), from, "a frame number after f"));
            } else {
                tracer.skipToCycle(number(from, from, "a CPU cycle, or f and a frame number"));
            }
        }
        ObjectMapper mapper = new ObjectMapper();
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        try {
            tracer.trace(count, line -> write(out, json ? json(mapper, line) : line.nestest()));
            out.flush();
        } catch (UncheckedIOException | IOException e) {
            // The reader went away (e.g. `| head`): stop quietly, as text tools do.
            return 0;
        }
        return 0;
    }

    private static void write(BufferedWriter out, String line) {
        try {
            out.write(line);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String json(ObjectMapper mapper, TraceLine line) {
        ObjectNode o = mapper.createObjectNode();
        o.put("pc", String.format(Locale.ROOT, "%04X", line.pc()));
        ArrayNode bytes = o.putArray("bytes");
        for (int b : line.bytes()) {
            bytes.add(String.format(Locale.ROOT, "%02X", b));
        }
        o.put("disassembly", line.disassembly());
        o.put("official", line.official());
        o.put("a", String.format(Locale.ROOT, "%02X", line.a()));
        o.put("x", String.format(Locale.ROOT, "%02X", line.x()));
        o.put("y", String.format(Locale.ROOT, "%02X", line.y()));
        o.put("p", String.format(Locale.ROOT, "%02X", line.p()));
        o.put("sp", String.format(Locale.ROOT, "%02X", line.sp()));
        o.put("scanline", line.scanline());
        o.put("dot", line.dot());
        o.put("cycle", line.cycle());
        o.put("frame", line.frame());
        return o.toString();
    }

    /** A CPU address in hex, with or without {@code $} or {@code 0x}. */
    private static int address(String text) throws BadInput {
        String t = text.startsWith("$") ? text.substring(1) : text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        try {
            int v = Integer.parseInt(t, 16);
            if (v >= 0 && v <= 0xFFFF) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadInput("--pc " + text + ": not a CPU address (hex $0000-$FFFF, e.g. C000)");
    }

    private static long number(String text, String shown, String what) throws BadInput {
        try {
            long v = Long.parseLong(text);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadInput("--from " + shown + ": expected " + what);
    }
}
