package lockstep.nes.verifier.canary;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.ppu.Region;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.state.StateDiff;
import lockstep.nes.verifier.HostSettings;
import lockstep.nes.verifier.DivergenceReport;
import lockstep.nes.verifier.canary.CanaryResult.AudioDifference;
import lockstep.nes.verifier.canary.CanaryResult.Divergence;
import lockstep.nes.verifier.canary.CanaryResult.FieldDifference;
import lockstep.nes.verifier.canary.CanaryResult.FirstCycle;
import lockstep.nes.verifier.canary.CanaryResult.Observables;
import lockstep.nes.verifier.canary.CanaryResult.PixelDifference;
import lockstep.nes.verifier.canary.CanaryResult.RamDifference;
import lockstep.nes.verifier.host.FrameRecord;
import lockstep.nes.verifier.host.HostClient;
import lockstep.nes.verifier.host.HostException;
import lockstep.nes.verifier.host.HostProtocol;
import lockstep.nes.verifier.host.HostStreams;

/**
 * A canary diff of two engine builds: a baseline and a candidate engine host (each its own
 * JVM), fed the same ROM and movie, compared stretch by stretch or frame by frame.
 *
 * <p>When both hosts stream chained records (protocol version 5) and share the state format,
 * both run chained stretches in parallel and stream one record per stretch, compared as they
 * come ({@link HostStreams}, as processes mode does), with inline snapshots every
 * {@link Options#checkpointEvery} frames; at the end the final state hashes and the last frame's
 * pixels, RAM and audio are compared. Any difference there, and every run of older or
 * differently formatted builds, goes to the frame logs from the newest agreed checkpoint.
 *
 * <p>Frame logs: both hosts run chunks of {@link Options#checkpointEvery} frames, each followed
 * by a snapshot (the checkpoint); four chunks are kept in flight so neither host waits for the
 * comparison. On the first differing frame both hosts go back to the last checkpoint and, when
 * their state formats agree and the checkpoint hashes match, re-run with per-cycle digests
 * streamed to find the first divergent cycle; there both describe their state and the differing
 * {@code component.field} values are reported. Then both re-run to the divergent frame and its
 * observables (pixels, RAM, audio) are compared.
 */
public final class Canary implements AutoCloseable {
    /** Settings. */
    public static final class Options {
        public int checkpointEvery = 60;
        public long timeoutMillis = 120_000;
        public int digestBatch = 8192;
        /**
         * The hosts' JVM options ({@link HostClient#BATCH_JVM_OPTIONS}). More can be added
         * through {@link HostClient#JAVA_OPTIONS_ENV}.
         */
        public List<String> jvmOptions = HostClient.BATCH_JVM_OPTIONS;
        /** Called after each compared chunk of frames, and as streamed stretches are compared (may be null). */
        public Progress progress;
        /**
         * Called at each checkpoint both builds reached with matching frame records (every
         * {@link #checkpointEvery} frames), before more frames are compared; may be null. It may
         * throw (an unchecked exception) to stop the run: the farm stores the checkpoint there,
         * and stops a job whose lease is lost.
         */
        public CheckpointListener checkpoints;
    }

    /** Hears of each agreed checkpoint: both hosts' snapshots and the chunk of frame log before it. */
    public interface CheckpointListener {
        void reached(Resume checkpoint, List<FrameRecord> baselineChunk, List<FrameRecord> candidateChunk);
    }

    /** A checkpoint to resume a run from: the frame both hosts reached and their snapshots there. */
    public record Resume(int frame, HostClient.Snapshot baseline, HostClient.Snapshot candidate) {
    }

    /** Progress callback: {@code done} of {@code total} frames of the current target. */
    public interface Progress {
        void update(long done, long total);
    }

    /**
     * One ROM x movie pair to run, on {@code region}'s console (null: the one the ROM's header
     * names).
     */
    public record Target(String romName, byte[] rom, String movieName, Movie movie, int frames, Region region,
                         List<Cheat> cheats, byte[] fdsBios, String diskSide) {
        /** A target whose disk image (if it is one) runs with each host's config-folder BIOS, from side 1A. */
        public Target(String romName, byte[] rom, String movieName, Movie movie, int frames, Region region,
                      List<Cheat> cheats) {
            this(romName, rom, movieName, movie, frames, region, cheats, null, null);
        }

        /** A target run on the console the ROM's header names. */
        public Target(String romName, byte[] rom, String movieName, Movie movie, int frames) {
            this(romName, rom, movieName, movie, frames, null);
        }

        /** A target run without cheats. */
        public Target(String romName, byte[] rom, String movieName, Movie movie, int frames, Region region) {
            this(romName, rom, movieName, movie, frames, region, List.of());
        }

        /** The same target with {@code list} in effect on both sides. */
        public Target withCheats(List<Cheat> list) {
            return new Target(romName, rom, movieName, movie, frames, region, List.copyOf(list), fdsBios, diskSide);
        }

        /** The same target on {@code r}'s console. */
        public Target withRegion(Region r) {
            return new Target(romName, rom, movieName, movie, frames, r, cheats, fdsBios, diskSide);
        }

        /** The same disk image run with {@code bios} (null: the hosts' config folder's) from {@code side} (null: 1A). */
        public Target withDisk(byte[] bios, String side) {
            return new Target(romName, rom, movieName, movie, frames, region, cheats, bios, side);
        }
    }

    /**
     * Refuses to compare two hosts that run with different cheats: each reported the cheats it
     * runs with ({@link HostClient#cheatsLoaded}; null: a host too old to take any, which runs
     * without), and both must be the ones asked for.
     */
    public static void checkCheats(List<Cheat> asked, String baseline, String candidate) throws HostException {
        final String want = HostProtocol.cheatCodes(asked);
        final String a = baseline == null ? "" : baseline;
        final String b = candidate == null ? "" : candidate;
        if (!a.equals(want) || !b.equals(want)) {
            final String side = !a.equals(want) ? "baseline" : "candidate";
            final String got = !a.equals(want) ? baseline : candidate;
            throw new HostException(HostException.Kind.PROTOCOL, side, "runs with cheats "
                    + (got == null ? "none (its engine-host protocol is below version " + HostProtocol.CHEATS_VERSION
                            + ", which takes none)" : got.isEmpty() ? "none" : "'" + got + "'")
                    + " where '" + want + "' were asked for: the two sides must run the same cheats");
        }
    }

    private record Checkpoint(int frame, HostClient.Snapshot baseline, HostClient.Snapshot candidate) {
    }

    /**
     * Chunks requested ahead per host. Each host may run this many chunks ahead of the
     * comparison, so a host slowed for a moment (a JIT compile, another process) does not stall
     * the other one, which would leave one of the two cores idle.
     */
    private static final int IN_FLIGHT = 4;
    /**
     * Chained-stream requests each host may run ahead of the comparison (about 35 NTSC frames):
     * the canary bounds no drift, so a host held up by a compile is not made to wait for.
     */
    private static final int STREAM_CREDIT = 16;
    private static final int SHOW_PIXELS = 64;
    private static final int SHOW_RAM = 64;

    private final String baselineClasspath;
    private final String candidateClasspath;
    private final Options options;
    private volatile HostClient a;
    private volatile HostClient b;

    private Canary(String baselineClasspath, String candidateClasspath, Options options) {
        this.baselineClasspath = baselineClasspath;
        this.candidateClasspath = candidateClasspath;
        this.options = options;
    }

    /** Starts both hosts (in parallel) and checks their handshakes. */
    public static Canary start(String baselineClasspath, String candidateClasspath, Options options)
            throws HostException {
        Canary c = new Canary(baselineClasspath, candidateClasspath, options);
        c.startHosts();
        return c;
    }

    private void startHosts() throws HostException {
        HostException[] failure = new HostException[1];
        HostClient[] started = new HostClient[1];
        Thread t = new Thread(() -> {
            try {
                started[0] = HostClient.start("baseline", baselineClasspath, options.jvmOptions, options.timeoutMillis);
            } catch (HostException e) {
                failure[0] = e;
            }
        }, "start-baseline");
        t.start();
        HostClient cand = null;
        HostException candFailure = null;
        try {
            cand = HostClient.start("candidate", candidateClasspath, options.jvmOptions, options.timeoutMillis);
        } catch (HostException e) {
            candFailure = e;
        }
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure[0] != null || candFailure != null) {
            if (started[0] != null) {
                started[0].close();
            }
            if (cand != null) {
                cand.close();
            }
            throw failure[0] != null ? failure[0] : candFailure;
        }
        a = started[0];
        b = cand;
    }

    public HostClient.Hello baselineHello() {
        return a.hello();
    }

    public HostClient.Hello candidateHello() {
        return b.hello();
    }

    /** Runs one target; host failures become an "error" result (and the hosts are restarted). */
    public CanaryResult run(Target t) {
        return run(t, null);
    }

    /**
     * Runs one target from a checkpoint of an earlier run of the same target and builds (null:
     * from power-on); frames before it are not compared again.
     */
    public CanaryResult run(Target t, Resume from) {
        long t0 = System.nanoTime();
        try {
            if (a == null || b == null) {
                startHosts();
            }
            return compare(t, from, t0);
        } catch (HostException e) {
            closeHosts();
            return new CanaryResult(t.romName(), t.movieName(), t.frames(), 0, "error", 0, 0, null, null, null,
                    e.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), e.getMessage(), millis(t0));
        }
    }

    private static long millis(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /**
     * The observable hash scheme both hosts' frame records use: XXH64 when both speak protocol
     * version 3 (cheaper per frame), else the version-1 FNV-1a every host starts with.
     */
    public int hashScheme() {
        return a.hello().protocolVersion() >= 3 && b.hello().protocolVersion() >= 3 ? HostProtocol.HASH_XXH64
                : HostProtocol.HASH_FNV1A;
    }

    private CanaryResult compare(Target t, Resume from, long t0) throws HostException {
        if (hashScheme() != HostProtocol.HASH_FNV1A) {
            a.sendHashes(hashScheme());
            b.sendHashes(hashScheme());
            a.awaitHashes();
            b.awaitHashes();
        }
        a.loadRom(t.romName(), t.rom(), t.region(), t.cheats(), t.fdsBios(), t.diskSide());
        b.loadRom(t.romName(), t.rom(), t.region(), t.cheats(), t.fdsBios(), t.diskSide());
        checkCheats(t.cheats(), a.cheatsLoaded(), b.cheatsLoaded());
        if (t.movie() != null) {
            int n = t.movie().frames().size();
            int[] c = new int[n];
            int[] p0 = new int[n];
            int[] p1 = new int[n];
            for (int i = 0; i < n; i++) {
                Movie.Frame f = t.movie().frames().get(i);
                c[i] = f.commands();
                p0[i] = f.port0();
                p1[i] = f.port1();
            }
            a.loadMovie(c, p0, p1);
            b.loadMovie(c, p0, p1);
        }
        Checkpoint cp;
        if (from != null && from.frame() > 0 && from.frame() <= t.frames()) {
            cp = new Checkpoint(from.frame(), from.baseline(), from.candidate());
            restoreBoth(cp);
        } else {
            a.sendSnapshot();
            b.sendSnapshot();
            cp = new Checkpoint(0, a.awaitSnapshot(), b.awaitSnapshot());
        }
        if (streamsChains(cp, t.frames())) {
            Checkpoint[] last = {cp};
            CanaryResult r = streamChained(t, last, t0);
            if (r != null) {
                return r;
            }
            // A stretch, the final state or the last frame's observables differ: the frame logs
            // from the last agreed checkpoint name the frame, and localise it as always.
            cp = last[0];
            restoreBoth(cp);
        }
        return frameLog(t, cp, t0);
    }

    /**
     * Chained streaming serves when both hosts stream chained records (protocol version 5), share
     * the state format (the records hold represented state) and stand at the same cycle, and no
     * listener wants the frame log.
     */
    private boolean streamsChains(Checkpoint cp, int frames) {
        return a.hello().protocolVersion() >= 5 && b.hello().protocolVersion() >= 5 && sameFormat()
                && options.checkpoints == null && cp.frame() < frames
                && cp.baseline().cycles() == cp.candidate().cycles();
    }

    /**
     * Both hosts run chained stretches in parallel (RUN_STREAM with STREAM_DIGESTS 3, credits and
     * inline snapshots as in processes mode) and their records are compared per stretch; at the
     * end their final state hashes and last frame's observables are compared. Returns the pass
     * result, or null after any difference with {@code last[0]} set to the newest checkpoint whose
     * snapshots agree (both hosts then owe nothing).
     */
    private CanaryResult streamChained(Target t, Checkpoint[] last, long t0) throws HostException {
        final int frames = t.frames();
        HostStreams s = new HostStreams("baseline", "candidate", HostSettings.CHAINED_STREAM_CHUNK, 64, frames,
                Math.max(1, options.checkpointEvery), null);
        s.a.client = a;
        s.b.client = b;
        s.chained(true);
        s.credit(STREAM_CREDIT);
        a.streamDigests(HostProtocol.DIGEST_CHAINED);
        b.streamDigests(HostProtocol.DIGEST_CHAINED);
        s.reset(last[0].baseline().cycles());
        // Only checkpoints before the last frame: the frame logs from there must include it, in
        // case only its observables differ.
        HostStreams.SnapshotPair agreed = (position, x, y) -> {
            if (x.frame() == y.frame() && x.frame() < frames && Arrays.equals(x.stateHash(), y.stateHash())) {
                last[0] = new Checkpoint(x.frame(), x, y);
            }
        };
        while (!s.done()) {
            s.topUp(s.a);
            s.topUp(s.b);
            boolean got = s.drainAvailable(s.a) | s.drainAvailable(s.b);
            long differs = s.compare();
            s.pairSnapshots(agreed);
            if (differs >= 0 || s.endMismatch() >= 0) {
                s.drainAll(s.a);
                s.drainAll(s.b);
                return null;
            }
            if (options.progress != null) {
                options.progress.update(Math.min(s.a.frame, s.b.frame), frames);
            }
            s.checkHung(System.nanoTime(), options.timeoutMillis);
            if (!got) {
                s.awaitAny();
            }
        }
        // A request sent before the host reached the last frame still owes its (empty) RUN_END.
        s.drainAll(s.a);
        s.drainAll(s.b);
        a.sendSnapshot();
        b.sendSnapshot();
        a.sendObserve();
        b.sendObserve();
        HostClient.Snapshot sa = a.awaitSnapshot();
        HostClient.Observation oa = a.awaitObservation();
        HostClient.Snapshot sb = b.awaitSnapshot();
        HostClient.Observation ob = b.awaitObservation();
        if (!Arrays.equals(sa.stateHash(), sb.stateHash()) || !Arrays.equals(oa.pixels(), ob.pixels())
                || !Arrays.equals(oa.ram(), ob.ram()) || !Arrays.equals(oa.audio(), ob.audio())) {
            return null;
        }
        if (options.progress != null) {
            options.progress.update(frames, frames);
        }
        return new CanaryResult(t.romName(), t.movieName(), frames, frames, "pass", sa.cycles(), sb.cycles(),
                sa.stateHashHex(), sb.stateHashHex(), null, null, null, millis(t0));
    }

    /**
     * The frame logs compared from checkpoint {@code cp} to the end, in chunks of
     * {@link Options#checkpointEvery} frames, each followed by a snapshot (the next checkpoint).
     */
    private CanaryResult frameLog(Target t, Checkpoint cp, long t0) throws HostException {
        final int frames = t.frames();
        final int k = Math.max(1, options.checkpointEvery);
        ArrayDeque<Integer> inFlight = new ArrayDeque<>();
        int sent = cp.frame();
        int compared = cp.frame();
        FrameRecord lastA = null;
        FrameRecord lastB = null;
        while (compared < frames) {
            while (inFlight.size() < IN_FLIGHT && sent < frames) {
                int n = Math.min(k, frames - sent);
                a.sendRunFrames(n);
                a.sendSnapshot();
                b.sendRunFrames(n);
                b.sendSnapshot();
                inFlight.add(n);
                sent += n;
            }
            int n = inFlight.poll();
            List<FrameRecord> ra = a.awaitFrames(n);
            HostClient.Snapshot sa = a.awaitSnapshot();
            List<FrameRecord> rb = b.awaitFrames(n);
            HostClient.Snapshot sb = b.awaitSnapshot();
            for (int i = 0; i < n; i++) {
                FrameRecord x = ra.get(i);
                FrameRecord y = rb.get(i);
                if (!comparable(x.differences(y)).isEmpty()) {
                    drain(inFlight);
                    Divergence d = localize(compared + i, x, y, cp);
                    return new CanaryResult(t.romName(), t.movieName(), frames, compared + i, "diverged", x.cycles(),
                            y.cycles(), x.stateHashHex(), y.stateHashHex(), d, null, null, millis(t0));
                }
            }
            compared += n;
            lastA = ra.get(n - 1);
            lastB = rb.get(n - 1);
            cp = new Checkpoint(compared, sa, sb);
            if (options.checkpoints != null) {
                options.checkpoints.reached(new Resume(compared, sa, sb), ra, rb);
            }
            if (options.progress != null) {
                options.progress.update(compared, frames);
            }
        }
        String ha = cp.baseline().stateHashHex();
        String hb = cp.candidate().stateHashHex();
        long ca = lastA != null ? lastA.cycles() : cp.baseline().cycles();
        long cb = lastB != null ? lastB.cycles() : cp.candidate().cycles();
        if (!ha.equals(hb) && sameFormat()) {
            Divergence d = new Divergence(frames, List.of("final state"), "state " + ha, "state " + hb, cp.frame(),
                    cp.baseline().cycles(), sameFormat(), null, null, true,
                    "the final state hashes differ although every frame record agreed", null, null, null);
            return new CanaryResult(t.romName(), t.movieName(), frames, frames, "diverged", ca, cb, ha, hb, d, null, null,
                    millis(t0));
        }
        return new CanaryResult(t.romName(), t.movieName(), frames, frames, "pass", ca, cb, ha, hb, null, null, null,
                millis(t0));
    }

    /** Reads (and drops) the answers of the chunks still in flight, so both hosts are idle. */
    private void drain(ArrayDeque<Integer> inFlight) throws HostException {
        while (!inFlight.isEmpty()) {
            int n = inFlight.poll();
            a.awaitFrames(n);
            a.awaitSnapshot();
            b.awaitFrames(n);
            b.awaitSnapshot();
        }
    }

    /**
     * The differences that count: all of them when both builds share the state format; without
     * the state hash otherwise (snapshots of two formats never hash alike).
     */
    private List<String> comparable(List<String> differences) {
        if (sameFormat() || !differences.contains("state")) {
            return differences;
        }
        List<String> d = new ArrayList<>(differences);
        d.remove("state");
        return d;
    }

    private boolean sameFormat() {
        return a.hello().stateFormatVersion() == b.hello().stateFormatVersion();
    }

    private void restoreBoth(Checkpoint cp) throws HostException {
        a.sendRestore(cp.baseline());
        b.sendRestore(cp.candidate());
        a.awaitRestore();
        b.awaitRestore();
    }

    private Divergence localize(int frame, FrameRecord x, FrameRecord y, Checkpoint cp) throws HostException {
        boolean sameFormat = sameFormat();
        boolean cpAgree = Arrays.equals(cp.baseline().stateHash(), cp.candidate().stateHash());
        FirstCycle first = null;
        describedTrace = null;
        List<String> notes = new ArrayList<>();
        if (!sameFormat) {
            notes.add("the builds' state formats differ (baseline version " + a.hello().stateFormatVersion()
                    + ", candidate version " + b.hello().stateFormatVersion()
                    + "), so the divergence is named by frame and observables");
        } else if (!cpAgree) {
            notes.add("the engines' states differ already at the checkpoint of frame " + cp.frame()
                    + " (the first state either run produced), so no cycle can be named; see the observables");
        } else {
            long target = Math.max(x.cycles(), y.cycles());
            long cycle = firstDivergentCycle(cp, target);
            if (cycle < 0) {
                notes.add("the per-cycle digests agree up to cycle " + target
                        + ": the difference is in an output that is not machine state");
            } else {
                first = describeAt(cp, cycle);
            }
        }
        // The divergent frame's observables, from a re-run of both hosts from the checkpoint.
        restoreBoth(cp);
        int n = frame - cp.frame() + 1;
        a.sendRunFrames(n);
        a.sendObserve();
        b.sendRunFrames(n);
        b.sendObserve();
        List<FrameRecord> ra = a.awaitFrames(n);
        HostClient.Observation oa = a.awaitObservation();
        List<FrameRecord> rb = b.awaitFrames(n);
        HostClient.Observation ob = b.awaitObservation();
        FrameRecord rx = ra.get(n - 1);
        FrameRecord ry = rb.get(n - 1);
        boolean reproduced = !comparable(rx.differences(ry)).isEmpty();
        if (!reproduced) {
            notes.add("the re-run from the checkpoint did NOT reproduce the difference (a non-deterministic build?)");
        }
        Observables obs = observables(oa, ob, rx.audioSamples() != ry.audioSamples() || rx.audioHash() != ry.audioHash());
        return new Divergence(frame, comparable(x.differences(y)), x.toString(), y.toString(), cp.frame(), cp.baseline().cycles(),
                sameFormat, first, obs, reproduced, String.join("; ", notes), oa.pixels(), ob.pixels(), describedTrace);
    }

    /** Re-runs both hosts from {@code cp} to {@code target} with per-cycle digests; -1 if none differ. */
    private long firstDivergentCycle(Checkpoint cp, long target) throws HostException {
        restoreBoth(cp);
        a.sendRunToCycle(target, options.digestBatch);
        b.sendRunToCycle(target, options.digestBatch);
        long first = -1;
        HostClient.Digests da = a.awaitDigests();
        HostClient.Digests db = b.awaitDigests();
        while (da != null && db != null) {
            if (first < 0) {
                if (da.firstCycle() != db.firstCycle()) {
                    first = Math.min(da.firstCycle(), db.firstCycle());
                } else {
                    int m = Math.min(da.digests().length, db.digests().length);
                    for (int i = 0; i < m; i++) {
                        if (da.digests()[i] != db.digests()[i]) {
                            first = da.firstCycle() + i;
                            break;
                        }
                    }
                }
            }
            da = a.awaitDigests();
            db = b.awaitDigests();
        }
        while (da != null) {
            da = a.awaitDigests();
        }
        while (db != null) {
            db = b.awaitDigests();
        }
        return first;
    }

    /** Both builds' last instructions on the re-run of {@link #describeAt} (null: a host does not send them). */
    private TracePair describedTrace;

    /**
     * Both engines at the end of {@code cycle}: where they are and which fields differ; their
     * last instructions up to it in {@link #describedTrace} when both hosts send them.
     */
    private FirstCycle describeAt(Checkpoint cp, long cycle) throws HostException {
        boolean traces = a.traces() && b.traces();
        if (traces) {
            // Recording from the restore on (RESTORE starts the record afresh).
            a.sendTrace(DivergenceReport.TRACE_LINES);
            b.sendTrace(DivergenceReport.TRACE_LINES);
            a.awaitTrace();
            b.awaitTrace();
        }
        restoreBoth(cp);
        a.sendRunToCycle(cycle, options.digestBatch);
        b.sendRunToCycle(cycle, options.digestBatch);
        while (a.awaitDigests() != null) {
            // discard
        }
        while (b.awaitDigests() != null) {
            // discard
        }
        if (traces) {
            a.sendTrace(0);
            b.sendTrace(0);
            describedTrace = TracePair.ofText(a.awaitTrace(), b.awaitTrace());
        }
        a.sendDescribe();
        b.sendDescribe();
        HostClient.Description x = a.awaitDescription();
        HostClient.Description y = b.awaitDescription();
        List<FieldDifference> fields = new ArrayList<>();
        for (String line : StateDiff.diff(x.entries(), y.entries())) {
            int colon = line.indexOf(": ");
            int arrow = line.lastIndexOf(" -> ");
            if (colon > 0 && arrow > colon) {
                fields.add(new FieldDifference(line.substring(0, colon), line.substring(colon + 2, arrow),
                        line.substring(arrow + 4)));
            } else {
                fields.add(new FieldDifference(line, "", ""));
            }
        }
        return new FirstCycle(cycle, x.ppuFrame(), x.scanline(), x.dot(), String.format("$%04X", x.pc()),
                x.instruction(), String.format("$%04X", y.pc()), y.instruction(), fields);
    }

    static Observables observables(HostClient.Observation x, HostClient.Observation y, boolean audioDiffers) {
        int width = 256;
        int count = 0;
        int x0 = Integer.MAX_VALUE;
        int y0 = Integer.MAX_VALUE;
        int x1 = -1;
        int y1 = -1;
        List<PixelDifference> px = new ArrayList<>();
        int n = Math.min(x.pixels().length, y.pixels().length);
        for (int i = 0; i < n; i++) {
            int va = x.pixels()[i] & 0x1FF;
            int vb = y.pixels()[i] & 0x1FF;
            if (va != vb) {
                count++;
                int cx = i % width;
                int cy = i / width;
                x0 = Math.min(x0, cx);
                y0 = Math.min(y0, cy);
                x1 = Math.max(x1, cx);
                y1 = Math.max(y1, cy);
                if (px.size() < SHOW_PIXELS) {
                    px.add(new PixelDifference(cx, cy, va, vb));
                }
            }
        }
        int ramCount = 0;
        List<RamDifference> ram = new ArrayList<>();
        int m = Math.min(x.ram().length, y.ram().length);
        for (int i = 0; i < m; i++) {
            if (x.ram()[i] != y.ram()[i]) {
                ramCount++;
                if (ram.size() < SHOW_RAM) {
                    ram.add(new RamDifference(String.format("$%04X", i), x.ram()[i] & 0xFF, y.ram()[i] & 0xFF));
                }
            }
        }
        AudioDifference audio = null;
        short[] sa = x.audio();
        short[] sb = y.audio();
        int firstAudio = -1;
        int audioCount = 0;
        for (int i = 0; i < Math.max(sa.length, sb.length); i++) {
            if (i >= sa.length || i >= sb.length || sa[i] != sb[i]) {
                audioCount++;
                if (firstAudio < 0) {
                    firstAudio = i;
                }
            }
        }
        if (audioCount > 0 || audioDiffers) {
            audio = new AudioDifference(sa.length, sb.length, firstAudio, audioCount);
        }
        return new Observables(count, count > 0 ? new int[] {x0, y0, x1, y1} : null, px, ramCount, ram, audio);
    }

    private void closeHosts() {
        if (a != null) {
            a.close();
            a = null;
        }
        if (b != null) {
            b.close();
            b = null;
        }
    }

    /**
     * Stops a run now, from any thread: both hosts are killed, so the thread running
     * {@link #run} gets a host error at its next read. Closing still cleans up afterwards.
     */
    public void abort() {
        HostClient x = a;
        HostClient y = b;
        if (x != null) {
            x.abort();
        }
        if (y != null) {
            y.abort();
        }
    }

    @Override
    public void close() {
        closeHosts();
    }
}
