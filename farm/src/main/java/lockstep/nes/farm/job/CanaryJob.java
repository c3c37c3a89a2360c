package lockstep.nes.farm.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.movie.MovieException;
import lockstep.nes.verifier.canary.Canary;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.FrameRecord;
import lockstep.nes.verifier.host.HostClient;
import lockstep.nes.verifier.host.HostException;

/**
 * A canary diff of one ROM x movie through a baseline and a candidate jar (each an engine host
 * in its own JVM). Spec: {@code {"baseline": JAR, "candidate": JAR, "rom": PATH|"builtin:demo",
 * "movie": PATH|null, "frames": N, "checkpoint_every": K}}.
 *
 * <p>Every K frames, where both builds' frame records agreed, the job stores a checkpoint with its
 * fencing token: both hosts' snapshots and the frame log so far. The kill switch is checked there
 * first, so a cancelled job stores nothing more; when it fires mid-chunk both hosts are killed at
 * once, so the emulation stops within a frame. A retry (this worker or another) restores both
 * hosts from the last checkpoint and compares only the frames after it.
 */
public final class CanaryJob implements JobRunner {
    public static final String KIND = "canary";
    public static final String DEMO = "builtin:demo";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT = 1;

    /** Settings for the engine hosts (tests shorten the timeout). */
    public long hostTimeoutMillis = 120_000;

    /** The spec of a canary job. */
    public static String spec(Path baseline, Path candidate, String rom, Path movie, int frames, int checkpointEvery) {
        ObjectNode n = JSON.createObjectNode();
        n.put("baseline", baseline.toAbsolutePath().toString());
        n.put("candidate", candidate.toAbsolutePath().toString());
        n.put("rom", rom == null || rom.equals(DEMO) ? DEMO : Path.of(rom).toAbsolutePath().toString());
        if (movie == null) {
            n.putNull("movie");
        } else {
            n.put("movie", movie.toAbsolutePath().toString());
        }
        n.put("frames", frames);
        n.put("checkpoint_every", checkpointEvery);
        return n.toString();
    }

    /** Unchecked carrier of a JobFailure out of the checkpoint callback. */
    private static final class Carrier extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Carrier(JobFailure f) {
            super(f);
        }
    }

    @Override
    public JobResult run(JobContext ctx) throws JobFailure {
        JsonNode spec;
        try {
            spec = JSON.readTree(ctx.job().spec());
        } catch (IOException e) {
            throw new JobFailure("bad canary spec: " + e.getMessage());
        }
        String baseline = spec.path("baseline").asText(null);
        String candidate = spec.path("candidate").asText(null);
        if (baseline == null || candidate == null) {
            throw new JobFailure("canary spec needs \"baseline\" and \"candidate\"");
        }
        for (String jar : List.of(baseline, candidate)) {
            if (!Files.isRegularFile(Path.of(jar))) {
                throw new JobFailure(jar + ": jar not found on this worker");
            }
        }
        Canary.Target target = target(spec);
        int k = Math.max(1, spec.path("checkpoint_every").asInt(60));

        List<FrameRecord> log = new ArrayList<>();
        Canary.Resume resume = null;
        lockstep.nes.farm.store.Store.Checkpoint stored = ctx.lastCheckpoint();
        if (stored != null) {
            try {
                resume = decode(stored.data(), log);
            } catch (IOException e) {
                log.clear();
                resume = null; // unreadable: start over
            }
        }
        int resumedFrom = resume == null ? 0 : resume.frame();
        Canary.Options o = new Canary.Options();
        o.checkpointEvery = k;
        o.timeoutMillis = hostTimeoutMillis;
        o.checkpoints = (cp, ra, rb) -> {
            ctx.frameBoundary();
            log.addAll(ra);
            try {
                ctx.checkpoint(cp.frame(), encode(cp, log));
            } catch (JobFailure f) {
                throw new Carrier(f);
            }
        };
        ctx.frameBoundary();
        CanaryResult r;
        try (Canary canary = Canary.start(baseline, candidate, o)) {
            // A lost lease stops the emulation at once, not only at the next checkpoint: the
            // hosts are killed and the run below fails at its next read.
            ctx.killSwitch().onFire(why -> canary.abort());
            r = canary.run(target, resume);
        } catch (HostException e) {
            ctx.frameBoundary(); // killed by the switch: a cancelled attempt, not a failure
            throw new JobFailure("engine host: " + e.getMessage(), e);
        } catch (Carrier c) {
            throw (JobFailure) c.getCause();
        }
        ctx.frameBoundary();
        if (r.status().equals("error")) {
            throw new JobFailure("canary " + r.errorKind() + ": " + r.error());
        }
        ObjectNode out = JSON.valueToTree(r);
        out.put("resumed_from_frame", resumedFrom);
        out.put("frames_logged", log.size());
        return new JobResult(r.status(), out.toString());
    }

    private static Canary.Target target(JsonNode spec) throws JobFailure {
        String rom = spec.path("rom").asText(DEMO);
        int frames = spec.path("frames").asInt(5000);
        byte[] bytes;
        String romName;
        if (rom.equals(DEMO)) {
            bytes = DemoRom.bytes();
            romName = DemoRom.NAME;
        } else {
            try {
                bytes = Files.readAllBytes(Path.of(rom));
            } catch (IOException e) {
                throw new JobFailure(rom + ": cannot read the ROM on this worker (" + e.getMessage() + ")");
            }
            romName = rom;
        }
        Movie movie = null;
        String movieName = null;
        if (spec.hasNonNull("movie")) {
            movieName = spec.get("movie").asText();
            try {
                movie = Fm2.read(Path.of(movieName));
            } catch (MovieException e) {
                throw new JobFailure(e.getMessage());
            }
        }
        return new Canary.Target(romName, bytes, movieName, movie, frames);
    }

    static byte[] encode(Canary.Resume cp, List<FrameRecord> log) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeInt(cp.frame());
            snapshot(out, cp.baseline());
            snapshot(out, cp.candidate());
            out.writeInt(log.size());
            for (FrameRecord f : log) {
                out.writeInt(f.frame());
                out.writeLong(f.cycles());
                out.writeLong(f.ppuFrame());
                out.writeLong(f.pixelHash());
                out.writeLong(f.ramHash());
                out.writeLong(f.audioHash());
                out.writeInt(f.audioSamples());
                out.write(f.stateHash());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static void snapshot(DataOutputStream out, HostClient.Snapshot s) throws IOException {
        out.writeInt(s.frame());
        out.writeBoolean(s.midFrame());
        out.writeLong(s.cycles());
        out.write(s.stateHash());
        out.writeInt(s.data().length);
        out.write(s.data());
    }

    static Canary.Resume decode(byte[] data, List<FrameRecord> log) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        if (in.readInt() != FORMAT) {
            throw new IOException("unknown checkpoint format");
        }
        int frame = in.readInt();
        HostClient.Snapshot a = snapshot(in);
        HostClient.Snapshot b = snapshot(in);
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            int f = in.readInt();
            long cycles = in.readLong();
            long ppuFrame = in.readLong();
            long px = in.readLong();
            long ram = in.readLong();
            long audio = in.readLong();
            int samples = in.readInt();
            byte[] h = in.readNBytes(32);
            log.add(new FrameRecord(f, cycles, ppuFrame, px, ram, audio, samples, h));
        }
        return new Canary.Resume(frame, a, b);
    }

    private static HostClient.Snapshot snapshot(DataInputStream in) throws IOException {
        int frame = in.readInt();
        boolean mid = in.readBoolean();
        long cycles = in.readLong();
        byte[] hash = in.readNBytes(32);
        int n = in.readInt();
        if (n < 0 || n > (1 << 26)) {
            throw new IOException("bad snapshot length " + n);
        }
        return new HostClient.Snapshot(frame, mid, cycles, hash, in.readNBytes(n));
    }
}
