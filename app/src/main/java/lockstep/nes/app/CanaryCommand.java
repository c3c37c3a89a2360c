package lockstep.nes.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.zip.ZipFile;
import lockstep.nes.ppu.Region;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFile;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieException;
import lockstep.nes.core.movie.MovieStart;
import lockstep.nes.verifier.canary.Canary;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.HostClient;
import lockstep.nes.verifier.host.HostException;
import lockstep.nes.verifier.host.HostProtocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lockstep canary}: replays the same input through two engine builds and compares them. */
@Command(name = "canary", mixinStandardHelpOptions = true,
        description = {"Replay the same ROM and movie through two builds of the engine, each in its own JVM "
                + "(an engine host started from its jar), both running in parallel: their chained records "
                + "compared per stretch (every bus access and counted change), then the final state hash and "
                + "the last frame's pixels, RAM and audio; builds that differ there (or older builds) have their "
                + "frame logs compared frame by frame (cycles, pixels, RAM, audio, state hash).",
            "On the first difference both hosts re-run from the last matching checkpoint with per-cycle "
                + "digests to name the first divergent cycle and the differing component.field values.",
            "Exit 0: identical; 1: any divergence or a host that crashed/hung (report printed); "
                + "2: bad jar, ROM, movie or suite."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep canary --baseline a.jar --candidate b.jar", "  lockstep canary --baseline a.jar --candidate b.jar --rom game.nes \\", "      --movie run.fm2 --frames 3000", "  lockstep canary --baseline a.jar --candidate b.jar --suite nightly.json"})
public final class CanaryCommand implements Callable<Integer> {
    static final String DEMO = "builtin:demo";

    @Mixin
    RegionOption region = new RegionOption();

    @Mixin
    CheatOption cheat = new CheatOption();

    @Mixin
    DiskOptions disk = new DiskOptions();

    @Option(names = "--baseline", required = true, paramLabel = "A.jar", description = "the baseline build's jar")
    Path baseline;

    @Option(names = "--candidate", required = true, paramLabel = "B.jar", description = "the candidate build's jar")
    Path candidate;

    @Option(names = "--rom", paramLabel = "ROM", description = "iNES / NES 2.0 file, or " + DEMO + " (default: the built-in demo ROM)")
    String rom;

    @Mixin
    RomEntryOption archive;

    @Option(names = "--movie", paramLabel = "FILE.fm2", description = "FCEUX movie fed to both builds")
    Path movie;

    @Option(names = "--suite", paramLabel = "FILE.json", description = "JSON list of {\"rom\", \"movie\"?, \"frames\"?} "
            + "(paths relative to the file)")
    Path suite;

    @Option(names = "--frames", paramLabel = "N", description = "frames per ROM (default: ${DEFAULT-VALUE})")
    int frames = 5000;

    @Option(names = "--checkpoint-every", paramLabel = "K", description = "frames between checkpoints (default: ${DEFAULT-VALUE})")
    int checkpointEvery = 60;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "longest wait for any host answer (default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 120;

    @Option(names = "--report", paramLabel = "FILE.json", description = "write the report as JSON")
    Path report;

    @Option(names = "--html", paramLabel = "FILE.html", description = "write a report for a browser")
    Path html;

    @Option(names = "--no-progress", description = "no progress bar")
    boolean noProgress;

    @Override
    public Integer call() throws BadInput {
        try (Interrupt signal = Interrupt.watch()) {
            return compare();
        }
    }

    private int compare() throws BadInput {
        final java.time.Instant startedAt = java.time.Instant.now();
        final long t0 = System.nanoTime();
        PrintStream out = System.out;
        PrintStream err = System.err;
        List<Canary.Target> targets;
        try {
            Path romPath = rom == null || rom.equals(DEMO) ? null : Path.of(rom);
            Outputs.check(report, "--report", baseline, candidate, romPath, movie, suite);
            Outputs.check(html, "--html", baseline, candidate, romPath, movie, suite);
            checkJar(baseline, "--baseline");
            checkJar(candidate, "--candidate");
            if (frames < 1) {
                throw new BadInput(OptionRange.atLeast("--frames", 1, frames));
            }
            if (checkpointEvery < 1) {
                throw new BadInput(OptionRange.atLeast("--checkpoint-every", 1, checkpointEvery));
            }
            if (timeoutSeconds < 1) {
                throw new BadInput(OptionRange.atLeast("--timeout", 1, timeoutSeconds));
            }
            if (suite != null && (rom != null || movie != null || archive.entry != null)) {
                throw new BadInput("give either --suite or --rom/--movie/--entry, not both");
            }
        } catch (BadInput e) {
            err.println("error: " + e.getMessage());
            return 2;
        }

        Canary.Options o = new Canary.Options();
        o.checkpointEvery = checkpointEvery;
        o.timeoutMillis = timeoutSeconds * 1000L;
        // The hosts' JVMs start while the ROMs are read: start-up is a good part of a short run.
        CompletableFuture<Object> starting = startHosts(o);
        try {
            targets = suite != null ? readSuite(suite, frames, disk)
                    : List.of(target(rom, archive.entry, movie, frames, null, disk));
            Region forced = region.get();
            if (forced != null) {
                targets = targets.stream().map(t -> t.withRegion(forced)).toList();
            }
            if (suite != null) {
                // A suite's ROMs and movies are inputs too.
                Path[] inputs = targets.stream().flatMap(t -> java.util.stream.Stream.of(t.romName(), t.movieName()))
                        .filter(java.util.Objects::nonNull).map(Path::of).toArray(Path[]::new);
                Outputs.check(report, "--report", inputs);
                Outputs.check(html, "--html", inputs);
            }
            final var cheats = cheat.get();
            if (!cheats.isEmpty()) {
                targets = targets.stream().map(t -> t.withCheats(cheats)).toList();
            }
        } catch (BadInput e) {
            // Not waited for: hosts still starting are closed once up (or see their input end
            // with this JVM).
            starting.thenAccept(started -> {
                if (started instanceof Canary c) {
                    c.close();
                }
            });
            err.println("error: " + e.getMessage());
            return 2;
        }

        ProgressBar bar = noProgress ? null : new ProgressBar(err, System.console() != null);
        Object started = starting.join();
        if (started instanceof HostException e) {
            err.println("error: " + (e.host().equals("baseline") ? baseline : candidate) + ": not a working engine host: "
                    + e.getMessage());
            return 2;
        }
        Canary canary = (Canary) started;
        List<CanaryResult> results = new ArrayList<>();
        HostClient.Hello ha;
        HostClient.Hello hb;
        int hashScheme;
        boolean interrupted = false;
        // The frames of the ROM under way when a signal came, for the report.
        long[] framesRun = {0};
        try (canary) {
            ha = canary.baselineHello();
            hb = canary.candidateHello();
            hashScheme = canary.hashScheme();
            out.printf("canary: baseline %s (%s, state format v%d)%n", baseline, ha.buildId(), ha.stateFormatVersion());
            out.printf("canary: candidate %s (%s, state format v%d)%n", candidate, hb.buildId(), hb.stateFormatVersion());
            for (int i = 0; i < targets.size(); i++) {
                Canary.Target t = targets.get(i);
                if (bar != null) {
                    bar.start(i + 1, targets.size(), t.romName());
                }
                // Polled every frame: a signal stops the run there (see Interrupt).
                o.progress = (done, total) -> {
                    framesRun[0] = done;
                    if (Interrupt.requested()) {
                        throw new Interrupt.Stopped();
                    }
                    if (bar != null) {
                        bar.update(done, total);
                    }
                };
                CanaryResult r;
                framesRun[0] = 0;
                try {
                    r = canary.run(t);
                } catch (Interrupt.Stopped e) {
                    interrupted = true;
                    break;
                }
                if (bar != null) {
                    bar.clear();
                }
                results.add(r);
                out.print(CanaryText.result(r));
            }
        }
        if (bar != null) {
            bar.clear();
        }
        boolean passed = !interrupted && results.stream().allMatch(CanaryResult::passed);
        if (targets.size() > 1) {
            out.print(CanaryText.table(results));
        }
        long cycles = results.stream().mapToLong(CanaryResult::cyclesBaseline).sum();
        long compared = results.stream().mapToLong(CanaryResult::framesCompared).sum();
        long bad = results.stream().filter(r -> !r.passed()).count();
        String stopped = null;
        if (interrupted) {
            Canary.Target t = targets.get(results.size());
            stopped = String.format("stopped by a signal after %d of %d ROM(s) (%d frames and %d cycles compared); "
                    + "%s ran %d of %d frames", results.size(), targets.size(), compared, cycles,
                    CanaryText.shortName(t.romName()), framesRun[0], t.frames());
            out.println("canary: INTERRUPTED: " + stopped);
        } else if (passed) {
            out.printf("canary: PASS: %d ROM(s), %d frames and %d cycles compared, baseline and candidate identical%n",
                    results.size(), compared, cycles);
        } else {
            out.printf("canary: FAIL: %d of %d ROM(s) diverged or failed%n", bad, results.size());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("passed", passed);
        if (interrupted) {
            json.put("interrupted", true);
            Map<String, Object> under = new LinkedHashMap<>();
            Canary.Target t = targets.get(results.size());
            under.put("rom", t.romName());
            under.put("framesRun", framesRun[0]);
            under.put("frames", t.frames());
            json.put("interruptedDuring", under);
        }
        json.put("protocolVersion", HostProtocol.VERSION);
        json.put("observableHashes", HostProtocol.hashName(hashScheme));
        json.put("baseline", host(baseline, ha));
        json.put("candidate", host(candidate, hb));
        json.put("results", results);
        if (report != null) {
            try {
                Outputs.write(report, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(json),
                        "report");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("cannot encode the report: " + e.getMessage(), e);
            }
        }
        if (html != null) {
            CanaryHtml.Run run = new CanaryHtml.Run(startedAt, (System.nanoTime() - t0) / 1_000_000, options());
            Outputs.write(html, CanaryHtml.render(baseline, ha, candidate, hb, results, passed, run, stopped)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8), "HTML report");
        }
        return interrupted ? ExitCodes.SIGINT : passed ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** The options that shaped the run's comparisons, as given or defaulted (for the report's reader). */
    private List<String> options() {
        List<String> o = new ArrayList<>();
        if (suite != null) {
            o.add("--suite " + suite);
        } else {
            o.add("--rom " + (rom != null ? rom : DEMO));
        }
        if (archive.entry != null) {
            o.add("--entry " + archive.entry);
        }
        if (movie != null) {
            o.add("--movie " + movie);
        }
        if (region.region != null) {
            o.add("--region " + region.region);
        }
        o.add("--frames " + frames);
        o.add("--checkpoint-every " + checkpointEvery);
        o.add("--timeout " + timeoutSeconds);
        return o;
    }

    /** Starts both hosts on another thread: the {@link Canary}, or the {@link HostException} it failed with. */
    private CompletableFuture<Object> startHosts(Canary.Options o) {
        String a = baseline.toString();
        String b = candidate.toString();
        CompletableFuture<Object> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(Canary.start(a, b, o));
            } catch (HostException e) {
                f.complete(e);
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
            }
        }, "start-hosts");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static Map<String, Object> host(Path jar, HostClient.Hello h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jar", jar.toString());
        m.put("buildId", h.buildId());
        m.put("stateFormatVersion", h.stateFormatVersion());
        m.put("java", h.javaVersion());
        return m;
    }

    /** A jar that exists, is a zip, and holds the engine host's entry point. */
    static void checkJar(Path jar, String option) throws BadInput {
        if (!Files.exists(jar)) {
            throw new BadInput(jar + ": not found (" + option + ")");
        }
        if (!Files.isRegularFile(jar)) {
            throw new BadInput(jar + ": not a file (" + option + ")");
        }
        try (ZipFile z = new ZipFile(jar.toFile())) {
            String entry = HostProtocol.MAIN_CLASS.replace('.', '/') + ".class";
            if (z.getEntry(entry) == null) {
                throw new BadInput(jar + ": not a lockstep build with an engine host (no " + entry + ") (" + option + ")");
            }
        } catch (IOException e) {
            throw new BadInput(jar + ": not a jar (" + e.getMessage() + ") (" + option + ")");
        }
    }

    /**
     * The target of {@code romArg} (and its movie), run on the console the movie was recorded on
     * ({@code palFlag}), else on the one the header names.
     */
    static Canary.Target target(String romArg, Path moviePath, int frames, Path base) throws BadInput {
        return target(romArg, null, moviePath, frames, base);
    }

    /** As above, the ROM being {@code entry} of a .zip archive (null: its only .nes file). */
    static Canary.Target target(String romArg, String entry, Path moviePath, int frames, Path base) throws BadInput {
        return target(romArg, entry, moviePath, frames, base, null);
    }

    /**
     * As above, a disk image run with {@code disk}'s BIOS and side ({@code --fds-bios},
     * {@code --disk-side}; null or none given: each host's config folder's BIOS, side 1A), which
     * both hosts are sent.
     */
    static Canary.Target target(String romArg, String entry, Path moviePath, int frames, Path base, DiskOptions disk)
            throws BadInput {
        String romName;
        byte[] bytes;
        if (romArg == null || romArg.equals(DEMO)) {
            if (entry != null) {
                throw new BadInput(DEMO + ": --entry is for a ROM inside a .zip archive");
            }
            romName = DemoRom.NAME;
            bytes = DemoRom.bytes();
        } else {
            Path p = base != null ? base.resolve(romArg) : Path.of(romArg);
            try {
                // A .gz or a .zip holding one .nes is unpacked here: both builds get the image.
                bytes = RomFile.read(p, entry).bytes();
            } catch (RomFormatException e) {
                throw new BadInput(e.getMessage());
            }
            romName = p.toString();
        }
        Cartridge cart;
        try {
            // A disk image is checked with its BIOS and side in withDisk when they are given.
            cart = RomArg.load(romName, bytes, disk);
            cart.createMapper();
        } catch (RomFormatException e) {
            throw new BadInput(e.getMessage());
        }
        Movie m = null;
        String movieName = null;
        if (moviePath != null) {
            Path p = base != null ? base.resolve(moviePath) : moviePath;
            try {
                m = Fm2.read(p);
                if (MovieStart.fromState(m)) {
                    throw new BadInput(p + ": the movie starts from a save state; canary plays movies from power-on "
                            + "(headless and trace play this one)");
                }
            } catch (MovieException e) {
                throw new BadInput(e.getMessage());
            }
            movieName = p.toString();
        }
        Region region = m != null && m.region(cart.region()) != cart.region() ? m.region(cart.region()) : null;
        Canary.Target t = new Canary.Target(romName, bytes, movieName, m, frames, region);
        if (disk != null && (disk.bios != null || disk.side != null)) {
            t = t.withDisk(disk.bios != null ? cart.prg().clone() : null, disk.side);
        }
        return t;
    }

    static List<Canary.Target> readSuite(Path file, int defaultFrames) throws BadInput {
        return readSuite(file, defaultFrames, null);
    }

    /** As above, each disk image with {@code disk}'s BIOS and side (null: none given). */
    static List<Canary.Target> readSuite(Path file, int defaultFrames, DiskOptions disk) throws BadInput {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInput(file + ": " + (Files.exists(file) ? "not valid JSON (" + firstLine(e.getMessage()) + ")"
                    : "not found"));
        }
        if (root == null || !root.isArray() || root.isEmpty()) {
            throw new BadInput(file + ": a suite must be a non-empty JSON list of {\"rom\", \"movie\"?, \"frames\"?}");
        }
        Path base = file.toAbsolutePath().getParent();
        List<Canary.Target> out = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode e = root.get(i);
            String where = file + ": entry " + (i + 1);
            if (!e.isObject() || !e.hasNonNull("rom") || !e.get("rom").isTextual()) {
                throw new BadInput(where + ": needs \"rom\" (a path, or \"" + DEMO + "\")");
            }
            int f = defaultFrames;
            if (e.has("frames")) {
                if (!e.get("frames").canConvertToInt() || e.get("frames").asInt() < 1) {
                    throw new BadInput(where + ": \"frames\" must be a positive integer");
                }
                f = e.get("frames").asInt();
            }
            Path mv = null;
            if (e.hasNonNull("movie")) {
                if (!e.get("movie").isTextual()) {
                    throw new BadInput(where + ": \"movie\" must be a path");
                }
                mv = Path.of(e.get("movie").asText());
            }
            try {
                out.add(target(e.get("rom").asText(), null, mv, f, base, disk));
            } catch (BadInput x) {
                throw new BadInput(where + ": " + x.getMessage());
            }
        }
        return out;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * Progress on stderr: on a terminal a one-line bar redrawn in place ('\r') at most 5 times a
     * second; elsewhere (a file, a pipe) a plain line every 2 seconds.
     */
    static final class ProgressBar {
        private final PrintStream err;
        private String prefix = "";
        private long last;
        private boolean drawn;

        private final boolean inPlace;

        ProgressBar(PrintStream err, boolean inPlace) {
            this.err = err;
            this.inPlace = inPlace;
        }

        void start(int index, int count, String name) {
            String n = Path.of(name).getFileName().toString();
            prefix = count > 1 ? "[" + index + "/" + count + "] " + n : n;
            last = 0;
        }

        synchronized void update(long done, long total) {
            long now = System.nanoTime();
            if (done < total && now - last < (inPlace ? 200_000_000L : 2_000_000_000L)) {
                return;
            }
            last = now;
            if (!inPlace) {
                err.println("canary: " + prefix + " frame " + done + "/" + total);
                return;
            }
            int width = 30;
            int filled = (int) (width * done / Math.max(1, total));
            err.print("\r" + "#".repeat(filled) + "-".repeat(width - filled) + String.format(" %3d%% ", 100 * done / Math.max(1, total))
                    + prefix + " frame " + done + "/" + total);
            err.flush();
            drawn = true;
        }

        void clear() {
            if (drawn) {
                err.print("\r" + " ".repeat(100) + "\r");
                err.flush();
                drawn = false;
            }
        }
    }
}
