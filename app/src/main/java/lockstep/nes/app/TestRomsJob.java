package lockstep.nes.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.farm.job.JobContext;
import lockstep.nes.farm.job.JobFailure;
import lockstep.nes.farm.job.JobResult;
import lockstep.nes.farm.job.JobRunner;
import lockstep.nes.farm.lock.KilledException;
import lockstep.nes.roms.Manifest;
import lockstep.nes.roms.RomEntry;
import lockstep.nes.roms.RomResult;
import lockstep.nes.roms.RomRunner;

/**
 * A {@code test-roms} run of one ROM, as {@code lockstep test-roms} runs it: the manifest's
 * entry when the ROM is listed there (by its path under the roms dir), else the $6000 protocol
 * with a frame limit. Spec: {@code {"rom": "nes-test-roms/...", "frames": 3600}}. The roms dir is
 * this worker's (each machine has its own copy). The kill switch is checked after every frame.
 */
public final class TestRomsJob implements JobRunner {
    public static final String KIND = "test-roms";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path romsDir;
    private final Manifest manifest;

    public TestRomsJob(Path romsDir) {
        this.romsDir = romsDir;
        this.manifest = Manifest.builtIn();
    }

    /** The spec of a job for {@code rom} (a name under the roms dir, or an absolute path). */
    public static String spec(String rom, int frames) {
        ObjectNode n = JSON.createObjectNode();
        n.put("rom", rom);
        n.put("frames", frames);
        return n.toString();
    }

    @Override
    public JobResult run(JobContext ctx) throws JobFailure {
        JsonNode spec;
        try {
            spec = JSON.readTree(ctx.job().spec());
        } catch (Exception e) {
            throw new JobFailure("bad test-roms spec: " + e.getMessage());
        }
        String rom = spec.path("rom").asText(null);
        if (rom == null) {
            throw new JobFailure("test-roms spec without \"rom\"");
        }
        RomEntry entry = manifest.find(rom);
        if (entry == null) {
            entry = RomEntry.adHoc(rom, spec.path("frames").asInt(3600));
        }
        RomRunner runner = new RomRunner(romsDir);
        Path file = runner.file(entry);
        if (!Files.isRegularFile(file)) {
            // Missing on this machine: another worker may have it.
            throw new lockstep.nes.farm.job.JobUnrunnable(file + ": ROM not found on this worker (roms dir " + romsDir + ")");
        }
        ctx.frameBoundary();
        RomResult r;
        try {
            r = runner.run(entry, null, frame -> !ctx.killSwitch().fired());
        } catch (RomRunner.Cancelled e) {
            throw new KilledException(ctx.killSwitch().reason() + " (" + e.getMessage() + ")");
        }
        ctx.frameBoundary();
        ObjectNode out = JSON.createObjectNode();
        out.put("rom", r.rom());
        out.put("status", r.status().id());
        out.put("expected", r.asExpected());
        if (r.code() != null) {
            out.put("code", r.code());
        }
        out.put("message", r.oneLineMessage());
        out.put("frames", r.frames());
        return new JobResult(r.status().id(), out.toString());
    }
}
