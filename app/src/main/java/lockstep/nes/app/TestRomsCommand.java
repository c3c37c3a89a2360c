package lockstep.nes.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import lockstep.nes.ppu.Region;
import lockstep.nes.core.UserDirs;

import lockstep.nes.roms.HashUpdater;
import lockstep.nes.roms.Manifest;
import lockstep.nes.roms.Report;
import lockstep.nes.roms.RomEntry;
import lockstep.nes.roms.RomResult;
import lockstep.nes.roms.RomRunner;
import lockstep.nes.roms.RomSelection;
import lockstep.nes.roms.RomSuite;
import lockstep.nes.roms.RomsDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep test-roms}: runs test ROMs headless and reports each one's result. */
@Command(name = "test-roms", mixinStandardHelpOptions = true,
        description = {
            "Run test ROMs headless and print one line per ROM (status, code, ROM, the text it printed),"
                + " then \"N passed, N failed\".",
            "Without PATH, every ROM of the manifest runs. A ROM not in the manifest is read with the"
                + " $6000 protocol.",
            "Exit 0 only if every ROM the manifest expects to pass passed (ROMs expected to fail count"
                + " in \"failed\" but do not change the exit code); 1 otherwise; 2 for bad input."},
        footerHeading = "%nExamples:%n", footer = {"  lockstep test-roms", "  lockstep test-roms nes-test-roms/cpu_timing_test6", "  lockstep test-roms --threads 2 --json results.json"})
public final class TestRomsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "ROM files or folders (recursive): relative to the roms dir, to a folder in it"
                + " (nes-test-roms/) or to the working directory, or absolute")
    List<String> paths = new ArrayList<>();

    @Mixin
    RegionOption region = new RegionOption();

    @Option(names = "--roms", paramLabel = "DIR",
            description = "test ROM folder (default: $LOCKSTEP_ROMS, else ../shared/roms next to the project)")
    Path roms;

    @Option(names = "--json", paramLabel = "FILE.json", description = "also write the results as JSON")
    Path json;

    @Option(names = "--manifest", paramLabel = "FILE", description = "use this manifest instead of the built-in one")
    Path manifestFile;

    @Option(names = "--update-hashes", paramLabel = "MANIFEST",
            description = "rewrite the frame hashes that changed in this manifest file (prints each change;"
                + " new hashes are marked UNCHECKED until a person looks at the PNG)")
    Path updateHashes;

    @Option(names = "--frames", paramLabel = "N", defaultValue = "3600",
            description = "frame limit for ROMs not in the manifest (default: ${DEFAULT-VALUE})")
    int adHocFrames;

    @Option(names = "--threads", paramLabel = "N", description = "ROMs run in parallel (default: the cores)")
    Integer threads;

    @Option(names = "--pictures", paramLabel = "DIR",
            description = "where the last frame of each ROM that did not pass is saved as PNG"
                + " (default: rom-failures/ in the user's data folder, ~/.local/share/lockstep-nes)")
    Path pictures;

    @Override
    public Integer call() throws BadInput {
        try (Interrupt signal = Interrupt.watch()) {
            return runRoms();
        }
    }

    private int runRoms() throws BadInput {
        Outputs.check(json, "--json", manifestFile, updateHashes);
        Path romsDir = RomsDir.locate(roms, System.getenv(), TestRomsCommand.class);
        if (!Files.isDirectory(romsDir)) {
            System.err.println("error: " + romsDir + ": roms dir not found (use --roms DIR or set "
                    + RomsDir.ENV + ")");
            return 2;
        }
        if (adHocFrames < 1) {
            System.err.println("error: " + OptionRange.atLeast("--frames", 1, adHocFrames));
            return 2;
        }
        if (threads != null && threads < 1) {
            System.err.println("error: " + OptionRange.atLeast("--threads", 1, threads));
            return 2;
        }
        Path pictureDir = pictures != null ? pictures : UserDirs.data().resolve("rom-failures");
        if (Files.exists(pictureDir) && !Files.isDirectory(pictureDir)) {
            throw new BadInput(pictureDir + ": not a folder (--pictures)");
        }
        Path source = updateHashes != null ? updateHashes : manifestFile;
        Manifest manifest;
        try {
            manifest = source != null ? Manifest.load(source) : Manifest.builtIn();
        } catch (IOException e) {
            System.err.println("error: " + source + ": cannot read (" + e.getMessage() + ")");
            return 2;
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        List<RomEntry> entries;
        try {
            entries = RomSelection.select(manifest, romsDir, paths, adHocFrames);
        } catch (RomSelection.BadPathException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        Outputs.check(json, "--json", entries.stream().map(e -> romsDir.resolve(e.rom())).toArray(Path[]::new));
        if ((paths == null || paths.isEmpty()) && !entries.isEmpty()
                && entries.stream().noneMatch(e -> Files.isRegularFile(romsDir.resolve(e.rom())))) {
            // A folder that exists but is not the one holding the collection: say so once rather
            // than report every ROM of the manifest as missing.
            System.err.println("error: " + romsDir + ": none of the manifest's " + entries.size()
                    + " ROMs is there (it should hold nes-test-roms/; use --roms DIR or set " + RomsDir.ENV + ")");
            return 2;
        }
        Region forced = region.get();
        if (forced != null) {
            entries = entries.stream().map(e -> e.withRegion(forced.id())).toList();
        }
        RomRunner runner = new RomRunner(romsDir);
        if (updateHashes != null) {
            return updateHashes(runner, manifest, entries);
        }
        List<RomResult> results = new ArrayList<>();
        boolean interrupted = false;
        int pictured = 0;
        try (RomSuite suite = new RomSuite(runner, threads != null ? threads : RomSuite.defaultThreads())) {
            for (CompletableFuture<RomResult> f : suite.start(entries)) {
                RomResult r = awaitUnlessInterrupted(f);
                if (r == null) {
                    interrupted = true;
                    break;
                }
                results.add(r);
                System.out.println(Report.line(r));
                if (!r.passed()) {
                    try {
                        if (RomSuite.savePicture(r, pictureDir) != null) {
                            pictured++;
                        }
                    } catch (IOException e) {
                        System.err.println("warning: cannot save the picture of " + r.rom() + ": " + e.getMessage());
                    }
                }
            }
        }
        System.out.println(Report.summary(results) + (interrupted ? " (interrupted after " + results.size() + " of "
                + entries.size() + " ROMs)" : ""));
        if (pictured > 0) {
            System.err.println("test-roms: last frames of the ROMs that did not pass are in " + pictureDir);
        }
        if (json != null) {
            byte[] data = Report.json(results).getBytes(StandardCharsets.UTF_8);
            if (interrupted) {
                try {
                    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
                    ObjectNode root = (ObjectNode) mapper.readTree(data);
                    root.put("interrupted", true);
                    data = mapper.writeValueAsBytes(root);
                } catch (IOException e) {
                    throw new IllegalStateException("the report is not the JSON Report.json writes", e);
                }
            }
            Outputs.write(json, data, "results");
        }
        if (interrupted) {
            return ExitCodes.SIGINT;
        }
        return Report.expectationsMet(results) ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** The ROM's result, or null when a signal came first (polled every 100 ms). */
    private static RomResult awaitUnlessInterrupted(CompletableFuture<RomResult> f) {
        while (true) {
            if (Interrupt.requested()) {
                return null;
            }
            try {
                return f.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // poll again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause() != null ? e.getCause().getMessage() : e.getMessage(), e);
            }
        }
    }

    private int updateHashes(RomRunner runner, Manifest manifest, List<RomEntry> entries) {
        HashUpdater updater = new HashUpdater(runner, UserDirs.data().resolve("frame-hashes"),
                LocalDate.now(ZoneOffset.UTC).toString());
        try {
            updater.update(updateHashes, manifest, entries, System.out);
        } catch (IOException e) {
            System.err.println("error: " + updateHashes + ": cannot write (" + e.getMessage() + ")");
            return 2;
        }
        return 0;
    }
}
