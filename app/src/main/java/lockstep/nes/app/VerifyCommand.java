package lockstep.nes.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import lockstep.nes.core.Console;
import lockstep.nes.core.RegionWarning;
import lockstep.nes.core.TextFile;
import lockstep.nes.core.UserDirs;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieException;
import lockstep.nes.core.movie.MovieStart;
import lockstep.nes.verifier.AlertWebhook;
import lockstep.nes.verifier.DeadLetter;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.Faults;
import lockstep.nes.verifier.InputSource;
import lockstep.nes.verifier.Lockstep;
import lockstep.nes.verifier.MetricsServer;
import lockstep.nes.verifier.MovieInput;
import lockstep.nes.verifier.HostSettings;
import lockstep.nes.verifier.SessionMetrics;
import lockstep.nes.verifier.SessionSetupException;
import lockstep.nes.verifier.VerifySession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep verify}: two engines on one input stream, compared by the chain or every cycle. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Run two engines on the same input stream and compare them.",
            "--check chained (default): each engine folds every bus access (address, direction, value) and every "
                + "change of its counted parts (PPU, APU, DMA, controllers, board) into a chain; the cycle counts, "
                + "chains and whole states are compared at each frame's end. A CPU-internal difference that heals "
                + "before any bus access shows it is not seen.",
            "--check every-cycle: the whole states are compared after every CPU cycle (slower; it sees that "
                + "difference too).",
            "Exit 0: no divergence; 1: divergence (report written); 2: bad input; 5: an engine stalled "
                + "(no state difference shown)."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep verify", "  lockstep verify game.nes --frames 300 --mode threads --check every-cycle", "  lockstep verify game.nes --inject=ram-bitflip@100000:B --report r.json", "  lockstep verify game.nes --metrics-port=9400 --rollback on-alert"})
public final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ROM", description = "iNES / NES 2.0 file, or builtin:demo (default: the built-in demo ROM)")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Mixin
    DiskOptions disk;

    @Option(names = "--movie", paramLabel = "FILE.fm2", description = "FCEUX movie to feed both engines")
    Path movie;

    @Mixin
    RegionOption region = new RegionOption();

    @Mixin
    CheatOption cheat = new CheatOption();

    @Option(names = "--frames", paramLabel = "N", description = "frames to verify (default: ${DEFAULT-VALUE})")
    int frames = 600;

    @Option(names = "--mode", paramLabel = "MODE", description = "same-thread, threads or processes (default: threads "
            + "on a machine of 3 or more cores, where each engine has a core of its own; same-thread otherwise)")
    String mode;

    @Option(names = "--check", paramLabel = "CHECK", description = "chained (default: each engine folds every bus "
            + "access and change of its counted parts over a frame, whole states compared at its end) or every-cycle "
            + "(the whole states compared after every CPU cycle; slower)")
    String check = "chained";

    @Option(names = "--checkpoint-every", paramLabel = "K", description = "frames between checkpoints (default: ${DEFAULT-VALUE})")
    int checkpointEvery = 60;

    /** The ring's span: at least one checkpoint's worth of a minute, at most a day of play. */
    private static final double MIN_CHECKPOINT_MINUTES = 0.01;
    private static final double MAX_CHECKPOINT_MINUTES = 24 * 60;

    @Option(names = "--checkpoint-minutes", paramLabel = "M", description = "minutes of checkpoints kept (default: ${DEFAULT-VALUE})")
    double checkpointMinutes = 2;

    @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve /metrics and POST /alerts on 127.0.0.1:PORT")
    Integer metricsPort;

    @Option(names = "--inject", paramLabel = "SPEC", description = "fault to inject (repeatable): "
            + "ram-bitflip@CYCLE:ENGINE[:ADDR:BIT], vram-bitflip@..., reg@CYCLE:ENGINE:cpu.a=VALUE, "
            + "skip-cycle@CYCLE:ENGINE, stall@CYCLE:ENGINE:MILLIS")
    List<String> inject = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE.json", description = "write the run's report as JSON")
    Path report;

    @Option(names = "--dead-letter", paramLabel = "DIR", description = "where outputs go while the divergence flag is up "
            + "(default: dead-letter/ in the user's data folder, ~/.local/share/lockstep-nes)")
    Path deadLetter;

    @Option(names = "--rollback", paramLabel = "POLICY", description = "auto (default), on-alert or off")
    String rollback = "auto";

    @Option(names = "--session", paramLabel = "ID", description = "session id in metrics and alerts (default: ${DEFAULT-VALUE})")
    String session = "lockstep";

    @Option(names = "--alert-token-file", paramLabel = "FILE", description = "bearer token the /alerts webhook requires "
            + "(default: env LOCKSTEP_ALERT_TOKEN)")
    Path alertTokenFile;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the restart backoff's jitter (default: ${DEFAULT-VALUE})")
    long seed = 0x10CC57E9L;

    @Option(names = "--alert-wait", paramLabel = "SECONDS", description = "how long --rollback on-alert waits (default: ${DEFAULT-VALUE})")
    long alertWaitSeconds = 600;

    @Option(names = "--stall-ms", paramLabel = "MILLIS", description = "threads/processes modes: an engine silent this "
            + "long (or longer where its pace so far was slower) while the other runs over 50 cycles ahead is stalled: "
            + "reported and waited for, never a divergence (default: ${DEFAULT-VALUE})")
    long stallMillis = 1000;

    @Option(names = "--stream-chunk", paramLabel = "CYCLES", description = "processes mode: cycles per streaming request; "
            + "a host runs at most 3 chunks ahead of the other, which bounds the drift (default: 65536 with --check "
            + "chained, 1024 with every-cycle)")
    Integer streamChunk;

    @Option(names = "--host-timeout", paramLabel = "SECONDS", description = "processes mode: a host that owes an answer "
            + "this long is hung; it is killed and the run fails (default: ${DEFAULT-VALUE})")
    long hostTimeoutSeconds = 60;

    @Override
    public Integer call() throws Exception {
        Lockstep.Options o = new Lockstep.Options();
        HostSettings hosts = new HostSettings();
        Ports.check(metricsPort, "--metrics-port");
        Outputs.check(report, "--report", rom, movie, alertTokenFile);
        Path deadLetterDir = deadLetter != null ? deadLetter : UserDirs.data().resolve("dead-letter");
        if (deadLetter != null && Files.exists(deadLetter) && !Files.isDirectory(deadLetter)) {
            return fail(deadLetter + ": not a folder (--dead-letter)");
        }
        Cartridge cart;
        try {
            cart = RomArg.load(rom, archive.entry, disk);
        } catch (RomFormatException e) {
            return fail(e.getMessage());
        }
        Movie input = null;
        if (movie != null) {
            try {
                input = Fm2.read(movie);
            } catch (MovieException e) {
                return fail(e.getMessage());
            }
            cart = cart.withRegion(input.region(cart.region()));
        }
        try {
            cart = cheat.apply(region.apply(cart));
        } catch (BadInput e) {
            return fail(e.getMessage());
        }
        hosts.region = cart.region();
        hosts.cheats = cart.cheats();
        if (rom != null && RegionWarning.of(cart, rom.toString()) != null) {
            System.err.println(RegionWarning.of(cart, rom.toString()));
        }
        o.romName = RomArg.name(rom);
        try {
            hosts.romImage = RomArg.image(rom, archive.entry).bytes();
            if (cart.disk() != null && disk != null) {
                // The engine hosts run the BIOS and side given here, not their config folder's.
                hosts.fdsBios = disk.bios != null ? cart.prg().clone() : null;
                hosts.diskSide = disk.side;
            }
        } catch (RomFormatException e) {
            return fail(e.getMessage());
        }
        o.session = session;
        if (frames < 1) {
            return fail(OptionRange.atLeast("--frames", 1, frames));
        }
        o.frames = frames;
        if (checkpointEvery < 1) {
            return fail(OptionRange.atLeast("--checkpoint-every", 1, checkpointEvery));
        }
        o.checkpointEvery = checkpointEvery;
        if (!OptionRange.within(checkpointMinutes, MIN_CHECKPOINT_MINUTES, MAX_CHECKPOINT_MINUTES)) {
            return fail(OptionRange.between("--checkpoint-minutes", MIN_CHECKPOINT_MINUTES, MAX_CHECKPOINT_MINUTES,
                    checkpointMinutes));
        }
        o.checkpointsKept = (int) Math.max(1, Math.ceil(checkpointMinutes * 60 * cart.region().frameRate() / checkpointEvery));
        if (mode == null) {
            mode = defaultMode(Runtime.getRuntime().availableProcessors());
        }
        VerifySession.Mode sessionMode;
        switch (mode) {
            case "same-thread" -> sessionMode = VerifySession.Mode.SAME_THREAD;
            case "threads" -> sessionMode = VerifySession.Mode.THREADS;
            case "processes" -> sessionMode = VerifySession.Mode.PROCESSES;
            default -> {
                return fail("--mode must be same-thread, threads or processes, not '" + mode + "'");
            }
        }
        switch (check) {
            case "chained" -> o.check = Lockstep.Check.CHAINED;
            case "every-cycle" -> o.check = Lockstep.Check.EVERY_CYCLE;
            default -> {
                return fail("--check must be chained or every-cycle, not '" + check + "'");
            }
        }
        try {
            o.rollback = switch (rollback.toLowerCase(Locale.ROOT)) {
                case "auto" -> Lockstep.Rollback.AUTO;
                case "on-alert" -> Lockstep.Rollback.ON_ALERT;
                case "off" -> Lockstep.Rollback.OFF;
                default -> throw new IllegalArgumentException("--rollback must be auto, on-alert or off");
            };
            List<FaultSpec> faults = new ArrayList<>();
            for (String s : inject) {
                FaultSpec f = FaultSpec.parse(s);
                if (f.kind() == FaultSpec.Kind.STALL && sessionMode == VerifySession.Mode.SAME_THREAD) {
                    throw new IllegalArgumentException("bad --inject '" + s + "': stall applies to the threads and "
                            + "processes modes only");
                }
                faults.add(f);
            }
            Faults.check(faults, Console.create(cart));
            o.faults = faults;
        } catch (IllegalArgumentException | RomFormatException e) {
            return fail(e.getMessage());
        }
        if (input != null) {
            if (MovieStart.fromState(input)) {
                return fail(movie + ": the movie starts from a save state; verify plays movies from power-on "
                        + "(headless and trace play this one)");
            }
            o.input = new MovieInput(input);
        }
        String token = null;
        if (alertTokenFile != null) {
            try {
                token = TextFile.read(alertTokenFile).trim();
            } catch (IOException e) {
                return fail(e.getMessage() + " (--alert-token-file)");
            }
            if (token.isEmpty()) {
                // An empty token would leave the /alerts webhook without its bearer check.
                return fail(alertTokenFile + ": empty (--alert-token-file must hold the webhook's bearer token)");
            }
        } else if (System.getenv("LOCKSTEP_ALERT_TOKEN") != null) {
            token = System.getenv("LOCKSTEP_ALERT_TOKEN").trim();
        }
        if (o.rollback == Lockstep.Rollback.ON_ALERT && (metricsPort == null || token == null || token.isEmpty())) {
            return fail("--rollback on-alert needs --metrics-port and an alert token (--alert-token-file or LOCKSTEP_ALERT_TOKEN)");
        }
        o.alertWaitMillis = alertWaitSeconds * 1000;
        if (stallMillis < 1 || hostTimeoutSeconds < 1) {
            return fail(stallMillis < 1 ? OptionRange.atLeast("--stall-ms", 1, stallMillis)
                    : OptionRange.atLeast("--host-timeout", 1, hostTimeoutSeconds));
        }
        o.stallMillis = stallMillis;
        if (streamChunk != null && (streamChunk < 16 || streamChunk > 1 << 20)) {
            return fail(OptionRange.between("--stream-chunk", 16, 1 << 20, streamChunk));
        }
        hosts.streamChunk = streamChunk == null ? 0 : streamChunk;
        hosts.streamBatch = Math.min(64, hosts.streamChunk(o.check == Lockstep.Check.CHAINED));
        hosts.timeoutMillis = hostTimeoutSeconds * 1000;
        o.backoffSeed = seed;
        o.progress = System.err;
        o.progressInPlace = System.console() != null;

        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        VerifySession lockstep;
        try {
            lockstep = VerifySession.create(sessionMode, cart, o, hosts, fence -> new SessionMetrics(registry, session, fence));
        } catch (RomFormatException | IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        o.deadLetter = new DeadLetter(deadLetterDir, lockstep.fence());
        MetricsServer server = null;
        if (metricsPort != null) {
            AlertWebhook webhook = null;
            if (token != null && !token.isEmpty()) {
                webhook = new AlertWebhook(token);
                webhook.register(session, lockstep);
            }
            try {
                server = new MetricsServer(metricsPort, registry, webhook);
            } catch (IOException e) {
                return fail("cannot serve metrics on 127.0.0.1:" + metricsPort + " (" + e.getMessage() + ")");
            }
            System.err.println("verify: metrics on http://127.0.0.1:" + server.port() + "/metrics"
                    + (webhook != null ? ", alert webhook on /alerts" : ""));
        }
        // SIGINT/SIGTERM: the same-thread loop stops at the next frame; the threads and processes
        // modes where their comparing loop polls. The result keeps what was found so far.
        o.stopRequested = Interrupt::requested;
        Lockstep.Result r;
        try (Interrupt signal = Interrupt.watch()) {
            try {
                r = lockstep.run();
            } catch (SessionSetupException | RomFormatException e) {
                // Processes mode: the hosts did not start, or refused an --inject or the ROM.
                return fail(e.getMessage());
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
        List<FaultSpec> neverFired = new ArrayList<>();
        if (r.completed()) {
            List<FaultSpec> fired = lockstep.firedFaults();
            for (FaultSpec f : o.faults) {
                if (!fired.contains(f)) {
                    neverFired.add(f);
                }
            }
        }
        if (report != null) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("rom", o.romName);
            json.put("session", session);
            json.put("mode", mode);
            json.put("check", check);
            json.put("frames", r.frames());
            json.put("cyclesVerified", r.cyclesVerified());
            json.put("finalStateHash", r.finalStateHash());
            json.put("completed", r.completed());
            if (r.interrupted()) {
                json.put("interrupted", true);
            }
            json.put("stopReason", r.stopReason());
            json.put("rollbacks", r.rollbacks());
            json.put("divergences", r.divergences());
            json.put("stalls", r.stalls());
            json.put("faultsNeverFired", neverFired.stream().map(FaultSpec::toString).toList());
            writeReport(json);
        }
        if (r.divergences().size() > 0 && Files.isDirectory(deadLetterDir)) {
            System.err.println("verify: dead letters in " + deadLetterDir);
        }
        if (r.interrupted()) {
            System.out.printf("verify: INTERRUPTED after %d of %d frames; %s; %d rollback(s); cycles verified=%d%s%n",
                    r.frames(), frames, r.diverged() ? "DIVERGED " + r.divergences().size() + " time(s), first at cycle "
                            + r.divergences().get(0).cycle() : "no divergence before", r.rollbacks(), r.cyclesVerified(),
                    r.finalStateHash() != null ? " state=" + r.finalStateHash() : "");
            return ExitCodes.SIGINT;
        }
        if (!neverFired.isEmpty()) {
            // A fault meant to be caught that never happened: the run proves nothing (bad input).
            System.err.println("error: --inject " + neverFired.stream().map(FaultSpec::toString)
                    .collect(java.util.stream.Collectors.joining(", ")) + ": never fired (its cycle is past the run's "
                    + r.frames() + " frames)");
            return ExitCodes.BAD_INPUT;
        }
        if (r.diverged() || !r.completed()) {
            if (!r.diverged()) {
                System.out.printf("verify: %s (%s); frames=%d cycles verified=%d%s mode=%s%n",
                        r.stalled() ? "STALLED" : "FAILED", r.stopReason(), r.frames(), r.cyclesVerified(), stalls(r),
                        mode);
                return r.stalled() ? ExitCodes.STALLED : ExitCodes.FAILED;
            }
            System.out.printf("verify: DIVERGED %d time(s), first at cycle %d; %d rollback(s); frames=%d cycles verified=%d%s%s mode=%s%n",
                    r.divergences().size(), r.divergences().get(0).cycle(), r.rollbacks(), r.frames(),
                    r.cyclesVerified(), r.completed() ? " state=" + r.finalStateHash() : " (" + r.stopReason() + ")",
                    stalls(r), mode);
            return ExitCodes.FAILED;
        }
        if (r.stalled()) {
            System.out.printf("verify: no divergence, STALLED %d time(s); frames=%d cycles verified=%d state=%s mode=%s%n",
                    r.stalls().size(), r.frames(), r.cyclesVerified(), r.finalStateHash(), mode);
            return ExitCodes.STALLED;
        }
        System.out.printf("verify: no divergence; frames=%d cycles verified=%d state=%s mode=%s%n", r.frames(),
                r.cyclesVerified(), r.finalStateHash(), mode);
        return 0;
    }

    /** The mode verify runs in when none is given: one engine per core where the machine has a core to spare. */
    static String defaultMode(int cores) {
        return cores >= 3 ? "threads" : "same-thread";
    }

    private static String stalls(Lockstep.Result r) {
        return r.stalled() ? "; stalled " + r.stalls().size() + " time(s)" : "";
    }

    private void writeReport(Map<String, Object> json) throws BadInput {
        try {
            Outputs.write(report, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(json),
                    "report");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode the report: " + e.getMessage(), e);
        }
    }

    private static int fail(String message) {
        System.err.println("error: " + message);
        return 2;
    }
}
