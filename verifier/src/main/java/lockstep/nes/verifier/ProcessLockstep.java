package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.state.StateDiff;
import lockstep.nes.verifier.host.HostClient;
import lockstep.nes.verifier.host.HostException;
import lockstep.nes.verifier.host.HostProtocol;
import lockstep.nes.verifier.host.HostStreams;

/**
 * Processes mode: each engine runs in its own engine-host JVM (the canary's host and protocol,
 * docs/engine-host-protocol.md, version 2) and streams the digest of every cycle; the verifier
 * compares the two streams position by position. When both hosts speak version 4 they stream
 * representation digests ({@code CycleDigest#representation}: O(1), nothing caught up), and each
 * host is revisited where the other's state faults fire (REVISIT), so that a fault writing the
 * value already there is no divergence; older hosts stream present-state digests. The re-runs
 * that localise a divergence always use present-state digests.
 *
 * <p>Credits: a host is sent RUN_STREAM requests of {@link HostSettings#streamChunk(boolean)} cycles,
 * at most two outstanding, and only while it is less than two chunks past the compared
 * position, so it never runs more than three chunks ahead of the slower host: that bounds the
 * drift (the distance between the two hosts' streamed positions, exported as
 * {@code lockstep_drift_offset_cycles}) and the verifier's buffers. Checkpoints come inline: each
 * host sends its snapshot at the end of every K-th frame, and a pair whose hashes agree at a
 * compared position becomes a verified checkpoint.
 *
 * <p>On a digest mismatch both hosts are drained, restored to the last verified checkpoint and
 * re-run to the divergent cycle without the injected faults (does it reproduce?); there both
 * describe their state and the differing {@code component.field} values are reported. If it does
 * not reproduce (a one-shot fault), the re-run is repeated with the faults that fired, to name
 * the fields. A host that sends nothing past its stall threshold while it owes digests and the
 * other host was heard since is stalled ({@link StallWatch}: counted from its first record,
 * adapted to the pace so far): reported with the drift as a stall ({@link StallReport}), never
 * as a divergence, and waited for; nothing is rolled back for it. A host that crashes, is silent
 * past {@link HostSettings#timeoutMillis} (hung: killed) or breaks the protocol ends the run,
 * reported as such (never a pass).
 */
final class ProcessLockstep implements VerifySession {
    private static final String DIVERGENCE = "divergence";
    private static final String DONE = "done";

    private final Lockstep.Options options;
    private final EpochFence fence = new EpochFence();
    private final CheckpointRing checkpoints;
    private final SessionMetrics metrics;
    private final DivergencePolicy policy;
    private final int[][] movie;
    /** Faults that fired (their specs as sent), in order. */
    private final Set<String> fired = new LinkedHashSet<>();
    /** Faults that fired since the current epoch began (a re-run from its checkpoint replays these). */
    private final Set<String> firedThisEpoch = new LinkedHashSet<>();
    /** Cycles per RUN_STREAM request. */
    private final int chunk;
    private final HostStreams streams;
    private final HostStreams.Stream[] hosts;
    /** True when both hosts speak version 4: RUN_STREAM sends representation digests. */
    private boolean representation;
    /**
     * True with {@code --check chained} when both hosts speak version 5: RUN_STREAM sends one
     * record per stretch, at its last position; the positions inside a stretch are 0 here.
     */
    private boolean chained;
    private long verified;
    private long lastPrint = System.nanoTime();
    /**
     * The newest verified checkpoint and its stream position. The position equals the snapshot's
     * cycle count unless a movie power-cycled the console (which resets the count but not the
     * position) since the streams last restarted.
     */
    private CheckpointRing.Checkpoint latestCheckpoint;
    private long latestCheckpointPosition;

    private final HostSettings settings;
    /** Each host's stall watch (restarted with the streams) and its stall being reported, if any. */
    private final StallWatch[] stallWatch = new StallWatch[2];
    private final StallReport[] openStall = new StallReport[2];

    ProcessLockstep(Lockstep.Options options, HostSettings settings, Function<EpochFence, SessionMetrics> metrics) {
        if (settings.romImage == null) {
            throw new IllegalArgumentException("processes mode needs the ROM image (HostSettings.romImage)");
        }
        this.options = options;
        this.settings = settings;
        this.chunk = settings.streamChunk(options.check == Lockstep.Check.CHAINED);
        this.streams = new HostStreams("host A", "host B", chunk, settings.streamBatch, options.frames,
                options.checkpointEvery, this::faultFired);
        this.hosts = new HostStreams.Stream[] {streams.a, streams.b};
        this.checkpoints = new CheckpointRing(Math.max(1, options.checkpointsKept), fence);
        this.metrics = metrics.apply(fence);
        // A host runs up to three request chunks ahead of the slower one by design (credits).
        this.metrics.setDriftAllowance(3L * chunk);
        this.policy = new DivergencePolicy(options, this.metrics, fence);
        if (options.input instanceof MovieInput m) {
            List<Movie.Frame> frames = m.movie().frames();
            movie = new int[3][frames.size()];
            for (int i = 0; i < frames.size(); i++) {
                movie[0][i] = frames.get(i).commands();
                movie[1][i] = frames.get(i).port0();
                movie[2][i] = frames.get(i).port1();
            }
        } else if (options.input == InputSource.NONE) {
            movie = null;
        } else {
            throw new IllegalArgumentException("processes mode feeds the hosts a movie (MovieInput) or no input");
        }
    }

    @Override
    public List<FaultSpec> firedFaults() {
        List<FaultSpec> out = new ArrayList<>();
        for (FaultSpec f : options.faults) {
            if (fired.contains(f.toString())) {
                out.add(f);
            }
        }
        return out;
    }

    @Override
    public EpochFence fence() {
        return fence;
    }

    /** The engine hosts' process ids (A, B), for tests that kill one. */
    long[] hostPids() {
        return new long[] {pid(hosts[0]), pid(hosts[1])};
    }

    private static long pid(HostStreams.Stream h) {
        HostClient c = h.client;
        return c == null ? -1 : c.pid();
    }

    private record Event(String kind, long position, int host) {
    }

    @Override
    public Lockstep.Result run() throws InterruptedException {
        try {
            try {
                startBoth();
            } catch (HostException e) {
                throw new SessionSetupException("cannot start the engine hosts: " + e.getMessage(), e);
            }
            representation = hosts[0].client.hello().protocolVersion() >= 4
                    && hosts[1].client.hello().protocolVersion() >= 4;
            chained = options.check == Lockstep.Check.CHAINED && hosts[0].client.hello().protocolVersion() >= 5
                    && hosts[1].client.hello().protocolVersion() >= 5;
            streams.chained(chained);
            for (HostStreams.Stream h : hosts) {
                try {
                    h.client.inject(unfired(h.index));
                } catch (HostException e) {
                    if (e.kind() == HostException.Kind.HOST_ERROR) {
                        throw new SessionSetupException(e.getMessage().substring(e.host().length() + 2), e);
                    }
                    throw e;
                }
                armRepresentation(h);
            }
            HostClient.Snapshot sa = hosts[0].client.snapshot();
            HostClient.Snapshot sb = hosts[1].client.snapshot();
            if (!Arrays.equals(sa.stateHash(), sb.stateHash())) {
                throw new IllegalStateException("the two hosts differ at power-on: " + sa.stateHashHex() + " vs "
                        + sb.stateHashHex());
            }
            CheckpointRing.Checkpoint first = new CheckpointRing.Checkpoint(0, sa.cycles(), fence.current(), sa.data(),
                    sa.stateHashHex());
            checkpoints.add(first);
            begin(first);
            while (true) {
                Event ev = stream();
                if (ev.kind().equals(Lockstep.INTERRUPTED)) {
                    // Host A's state where it stopped (it may have streamed past the comparison).
                    streams.drainAll(hosts[0]);
                    options.endProgress();
                    return policy.result(frames(), verified, hosts[0].client.snapshot().stateHashHex(), false,
                            Lockstep.INTERRUPTED);
                }
                if (ev.kind().equals(DONE)) {
                    streams.drainAll(hosts[0]);
                    streams.drainAll(hosts[1]);
                    String finalHash = finalCheck();
                    if (finalHash != null) {
                        options.endProgress();
                        return policy.result(options.frames, verified, finalHash, true, "");
                    }
                    return policy.result(options.frames, verified, null, false, "final state hashes differ");
                }
                policy.raise();
                DivergenceReport report = localize(ev.position());
                // Both hosts stand at the divergent cycle: their last pictures go with the report.
                HostClient.Observation oa = observe(hosts[0]);
                HostClient.Observation ob = observe(hosts[1]);
                String stop = policy.decide(report, ev.kind(), (dl, epoch) -> dl.divergence(epoch, report, oa.pixels(),
                        ob.pixels()));
                if (stop != null) {
                    return policy.result(frames(), verified, null, false, stop);
                }
                // Faults a host fired past the divergence (it ran ahead of the comparison) fire
                // again after the rollback, where they are checked.
                for (FaultSpec f : options.faults) {
                    if (f.cycle() > report.cycle() && firedThisEpoch.contains(f.toString())) {
                        fired.remove(f.toString());
                    }
                }
                CheckpointRing.Checkpoint cp = rollback();
                policy.rolledBack(cp, "both hosts restored to %s, epoch %d, recovery verified");
            }
        } catch (HostException e) {
            // A host crashed, hung or broke the protocol: reported as such, never a pass.
            // A failure is not a divergence to roll back from: reported and the run ends.
            policy.raise();
            DivergenceReport r = hostFailure(e);
            policy.report(r, (dl, epoch) -> dl.result(epoch, Map.of("type", "host-failure", "report", r)));
            return policy.result(frames(), verified, null, false, e.getMessage());
        } finally {
            for (HostStreams.Stream h : hosts) {
                if (h.client != null) {
                    h.client.close();
                }
            }
        }
    }

    private static HostClient.Observation observe(HostStreams.Stream h) throws HostException {
        h.client.sendObserve();
        return h.client.awaitObservation();
    }

    private int frames() {
        return Math.min(hosts[0].frame, hosts[1].frame);
    }

    /** Starts both hosts, B on a helper thread so the two JVMs start in parallel. */
    private void startBoth() throws HostException, InterruptedException {
        HostClient[] b = new HostClient[1];
        HostException[] failure = new HostException[1];
        Thread t = new Thread(() -> {
            try {
                b[0] = startHost(hosts[1].name);
            } catch (HostException e) {
                failure[0] = e;
            }
        }, "start-host-B");
        t.start();
        HostException mine = null;
        try {
            hosts[0].client = startHost(hosts[0].name);
        } catch (HostException e) {
            mine = e;
        }
        t.join();
        hosts[1].client = b[0];
        if (mine != null) {
            throw mine;
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private HostClient startHost(String name) throws HostException {
        HostClient c = HostClient.start(name, settings.classpathOrOwn(), settings.mainClass, settings.jvmOptions,
                settings.timeoutMillis);
        try {
            if (c.hello().protocolVersion() < 2) {
                throw new HostException(HostException.Kind.PROTOCOL, name, "speaks engine-host protocol version "
                        + c.hello().protocolVersion() + "; processes mode needs version 2 (INJECT, RUN_STREAM)");
            }
            c.loadRom(options.romName, settings.romImage, settings.region, settings.cheats, settings.fdsBios,
                    settings.diskSide);
            if (!settings.cheats.isEmpty()
                    && !HostProtocol.cheatCodes(settings.cheats).equals(c.cheatsLoaded())) {
                throw new HostException(HostException.Kind.PROTOCOL, name, "runs with cheats "
                        + (c.cheatsLoaded() == null ? "none (engine-host protocol below version "
                                + HostProtocol.CHEATS_VERSION + ")" : "'" + c.cheatsLoaded() + "'")
                        + " where '" + HostProtocol.cheatCodes(settings.cheats) + "' were asked for");
            }
            if (movie != null) {
                c.loadMovie(movie[0], movie[1], movie[2]);
            }
        } catch (HostException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The faults of engine {@code engine} that have not fired, as specs. */
    private List<String> unfired(int engine) {
        List<String> out = new ArrayList<>();
        for (FaultSpec f : options.faults) {
            if (f.engine() == engine && !fired.contains(f.toString())) {
                out.add(f.toString());
            }
        }
        return out;
    }

    /**
     * With representation digests: the host streams them, and is revisited at the cycles of the
     * other host's state faults that have not fired (the other host fires all of those it reaches).
     */
    private void armRepresentation(HostStreams.Stream h) throws HostException {
        if (!representation) {
            return;
        }
        long[] cycles = new long[options.faults.size()];
        int n = 0;
        for (FaultSpec f : options.faults) {
            // Chained hosts cut their runs at a stall and revisit themselves there: the partner too.
            boolean revisit = chained ? Faults.revisitsPartner(f) : Faults.changesState(f);
            if (f.engine() != h.index && revisit && !fired.contains(f.toString())) {
                cycles[n++] = f.cycle();
            }
        }
        h.client.revisit(Arrays.copyOf(cycles, n));
        h.client.streamDigests(chained ? HostProtocol.DIGEST_CHAINED : HostProtocol.DIGEST_REPRESENTATION);
    }

    private List<String> firedList() {
        return List.copyOf(fired);
    }

    /**
     * Streams restart from {@code cp}: after RESTORE a host's stream position is the snapshot's
     * cycle count, so the verifier's positions restart there too.
     */
    private void begin(CheckpointRing.Checkpoint cp) {
        long position = cp.cycle();
        latestCheckpoint = cp;
        latestCheckpointPosition = position;
        streams.reset(position);
        for (int i = 0; i < 2; i++) {
            if (openStall[i] != null) {
                policy.stallEnded(openStall[i]);
                openStall[i] = null;
            }
            stallWatch[i] = new StallWatch(options.stallMillis, position);
        }
    }

    // ---- Streaming and comparing.

    /** Streams and compares until both hosts finished, the streams differ, or a host stalls. */
    private Event stream() throws HostException, InterruptedException {
        final HostStreams.Stream a = streams.a;
        final HostStreams.Stream b = streams.b;
        final long stallNanos = TimeUnit.MILLISECONDS.toNanos(options.stallMillis);
        while (true) {
            if (options.stopRequested.getAsBoolean()) {
                return new Event(Lockstep.INTERRUPTED, streams.compared(), -1);
            }
            streams.topUp(a);
            streams.topUp(b);
            boolean got = streams.drainAvailable(a) | streams.drainAvailable(b);
            long before = streams.compared();
            long differs = streams.compare();
            verified += streams.compared() - before;
            // Snapshots up to the last agreeing position are verified checkpoints even when a
            // difference follows in the same batch: the rollback goes to the newest of them.
            streams.pairSnapshots(this::checkpointPair);
            if (differs >= 0) {
                return new Event(DIVERGENCE, differs, -1);
            }
            if (streams.done()) {
                return new Event(DONE, streams.compared(), -1);
            }
            long end = streams.endMismatch();
            if (end >= 0) {
                // One host ended its frames where the other ran on.
                return new Event(DIVERGENCE, end, -1);
            }
            long now = System.nanoTime();
            streams.checkHung(now, settings.timeoutMillis);
            watchStalls(now);
            metrics.setDrift(a.received - b.received);
            metrics.setProgress(0, a.received, a.frame);
            metrics.setProgress(1, b.received, b.frame);
            if (options.progress != null && now - lastPrint > 1_000_000_000L) {
                lastPrint = now;
                options.progress(String.format("verify: frame %d/%d, %d cycles verified, drift %d", frames(),
                        options.frames, verified, Math.abs(a.received - b.received)));
            }
            if (!got) {
                streams.awaitAny();
            }
        }
    }

    /**
     * A host that owes records, silent past its threshold ({@link StallWatch}: counted from its
     * first record, adapted to the pace so far) while the other was heard since or waits ahead
     * of it owing nothing, is stalled:
     * reported and counted, never a divergence, nothing rolled back; the run waits for it (the
     * host timeout still ends a host that never answers). Both hosts silent is a busy machine.
     */
    private void watchStalls(long now) {
        for (HostStreams.Stream h : hosts) {
            StallWatch w = stallWatch[h.index];
            if (w.observe(Math.max(h.received, h.reached), h.lastHeard) && openStall[h.index] != null) {
                policy.stallEnded(openStall[h.index]);
                openStall[h.index] = null;
            }
        }
        for (HostStreams.Stream h : hosts) {
            HostStreams.Stream o = hosts[1 - h.index];
            // The other ran ahead: heard since, or waiting with nothing owed (its credit spent
            // or its frames done) at a later position.
            boolean otherAhead = o.lastHeard > h.lastHeard
                    || (o.outstanding == 0 && Math.max(o.received, o.reached) > Math.max(h.received, h.reached));
            if (h.outstanding > 0 && otherAhead && stallWatch[h.index].newStall(now)) {
                StallWatch w = stallWatch[h.index];
                openStall[h.index] = new StallReport(options.session, options.romName, "processes", h.name,
                        cycleOf(w.position()), h.frame, TimeUnit.NANOSECONDS.toMillis(w.silentNanos(now)),
                        TimeUnit.NANOSECONDS.toMillis(w.thresholdNanos()), cycleOf(Math.max(o.received, o.reached)),
                        false);
                policy.stall(openStall[h.index]);
            }
        }
    }

    /** A pair of inline snapshots at a compared position: agreeing, it becomes a verified checkpoint. */
    private void checkpointPair(long position, HostClient.Snapshot a, HostClient.Snapshot b) {
        long t0 = System.nanoTime();
        if (a.frame() == b.frame() && Arrays.equals(a.stateHash(), b.stateHash())) {
            CheckpointRing.Checkpoint cp = new CheckpointRing.Checkpoint(a.frame(), a.cycles(), fence.current(),
                    a.data(), a.stateHashHex());
            if (checkpoints.add(cp)) {
                latestCheckpoint = cp;
                latestCheckpointPosition = position;
            }
            metrics.checkpointSave().record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        }
    }

    /** A fault a host fired: recorded (a re-run replays it) and told. */
    private void faultFired(HostStreams.Stream h, HostClient.FaultFired f) {
        fired.add(f.spec());
        firedThisEpoch.add(f.spec());
        if (options.progress != null) {
            options.endProgress();
            // A fault fires at its own cycle inside a stretch; the message comes at the stretch's
            // end (f.position()), so the cycle told is the fault's, as the spec is its canonical form.
            String spec = f.spec();
            long cycle = f.position();
            try {
                FaultSpec parsed = FaultSpec.parse(spec);
                spec = parsed.toString();
                cycle = parsed.cycle();
            } catch (IllegalArgumentException e) {
                // a spec this controller did not send: told as the host wrote it
            }
            options.progress.printf("verify: %s: injected fault %s fired at cycle %d%n", h.name, spec, cycle);
        }
    }

    /**
     * After both finished with equal streams their final state hashes must agree too: returns
     * the hash, or null after recording the difference.
     */
    private String finalCheck() throws HostException {
        HostClient.Snapshot sa = hosts[0].client.snapshot();
        HostClient.Snapshot sb = hosts[1].client.snapshot();
        if (Arrays.equals(sa.stateHash(), sb.stateHash())) {
            return sa.stateHashHex();
        }
        DivergenceReport r = new DivergenceReport(options.session, options.romName, "processes", cycleOf(streams.compared()), -1, -1, -1,
                "", "", List.of(new DivergenceReport.FieldDifference("state hash", sa.stateHashHex(), sb.stateHashHex())),
                true, "every cycle digest agreed but the final snapshots do not", firedList(), null);
        policy.record(r);
        return null;
    }

    // ---- Localising.

    /**
     * Both hosts restored to the last verified checkpoint and re-run to the divergent cycle,
     * first without faults, then (if it does not reproduce) with the faults that fired.
     */
    private DivergenceReport localize(long cycle) throws HostException {
        streams.drainAll(hosts[0]);
        streams.drainAll(hosts[1]);
        CheckpointRing.Checkpoint cp = latestCheckpoint;
        // The re-run starts at the snapshot's cycle count: the divergent position in its terms.
        long shift = cp.cycle() - latestCheckpointPosition;
        List<String> faults = firedList();
        long detected = cycle + shift;
        HostReplay.Replay clean = HostReplay.run(hosts[0].client, hosts[1].client, representation, cp, detected,
                List.of(), List.of());
        if (clean.first() >= 0) {
            String note = "re-run from the checkpoint at frame " + cp.frame() + " reproduces it"
                    + (clean.first() != detected && !chained
                            ? " (first differing cycle on the re-run: " + clean.first() + ")" : "");
            return describe(standAt(cp, chained ? clean.first() : detected, List.of(), List.of(), clean, detected),
                    true, note, faults, List.of(), List.of());
        }
        List<List<String>> replayed = List.of(new ArrayList<>(), new ArrayList<>());
        for (FaultSpec f : options.faults) {
            if (f.kind() != FaultSpec.Kind.STALL && firedThisEpoch.contains(f.toString())) {
                replayed.get(f.engine()).add(f.toString());
            }
        }
        HostReplay.Replay first = HostReplay.run(hosts[0].client, hosts[1].client, representation, cp, detected,
                replayed.get(0), replayed.get(1));
        long at = chained && first.first() >= 0 ? first.first() : detected;
        return describe(standAt(cp, at, replayed.get(0), replayed.get(1), first, detected), false,
                "does not reproduce on a re-run from the checkpoint at frame " + cp.frame()
                + " (a one-shot fault); fields shown with the injected faults replayed", faults, replayed.get(0),
                replayed.get(1));
    }

    /** Where both hosts stand after {@link #standAt}: the cycle, and their last instructions up to it (or null). */
    private record Standing(long cycle, TracePair trace) {
    }

    /**
     * Both hosts standing at cycle {@code at} of a re-run from {@code cp} with the given faults:
     * where the last re-run ({@code last}, to {@code ranTo}) left them, else re-run there. A
     * chained stream finds a difference at its stretch's end; the report is at the first
     * differing cycle.
     */
    private Standing standAt(CheckpointRing.Checkpoint cp, long at, List<String> faultsA, List<String> faultsB,
            HostReplay.Replay last, long ranTo) throws HostException {
        if (at != ranTo) {
            last = HostReplay.run(hosts[0].client, hosts[1].client, representation, cp, at, faultsA, faultsB);
        }
        return new Standing(at, last.trace());
    }

    /**
     * Both hosts describe where they stand; the differing fields make the report. Its cycle is
     * the console's count as told by a host that re-ran without faults (by both, where both
     * did and agree): a movie's power command between the checkpoint and the divergence
     * restarted that count, which the stream position does not follow. Where both re-ran with
     * faults (which may skip or poke a cycle), or clean with counts that differ, the position in
     * the checkpoint's terms stands.
     */
    private DivergenceReport describe(Standing at, boolean reproduced, String note, List<String> faults,
            List<String> replayedA, List<String> replayedB) throws HostException {
        HostClient a = hosts[0].client;
        HostClient b = hosts[1].client;
        a.sendDescribe();
        b.sendDescribe();
        HostClient.Description x = a.awaitDescription();
        HostClient.Description y = b.awaitDescription();
        long cycle = at.cycle();
        if (replayedA.isEmpty() && replayedB.isEmpty()) {
            // Both re-ran clean; where their counts disagree, the count is itself the difference.
            cycle = x.cycles() == y.cycles() ? x.cycles() : at.cycle();
        } else if (replayedA.isEmpty()) {
            cycle = x.cycles();
        } else if (replayedB.isEmpty()) {
            cycle = y.cycles();
        }
        return new DivergenceReport(options.session, options.romName, "processes", cycle, x.ppuFrame(),
                x.scanline(), x.dot(), String.format("$%04X", x.pc()), x.instruction(),
                DivergenceReport.fields(StateDiff.diff(x.entries(), y.entries())), reproduced, note, faults,
                at.trace());
    }

    /** A stream position as a cycle count (they differ only after a movie's power command). */
    private long cycleOf(long position) {
        return position + latestCheckpoint.cycle() - latestCheckpointPosition;
    }

    private DivergenceReport hostFailure(HostException e) {
        String what = switch (e.kind()) {
            case CRASHED -> "crashed";
            case TIMEOUT -> "hung";
            case PROTOCOL -> "broke the protocol";
            case HOST_ERROR -> "failed a request";
        };
        long cycle = latestCheckpoint == null ? streams.compared() + 1 : cycleOf(streams.compared() + 1);
        return new DivergenceReport(options.session, options.romName, "processes", cycle, frames(), -1, -1, "",
                "", List.of(new DivergenceReport.FieldDifference(e.host() + " " + what, e.getMessage(), "")), true,
                e.getMessage(), firedList(), null);
    }

    // ---- Rollback.

    /**
     * Restores the last verified checkpoint into both hosts, checks that both hash to the
     * checkpoint's stored hash (recovery mode), re-arms the faults that have not fired, and
     * begins a new epoch: the hosts' answers to requests of the old epoch were drained.
     */
    private CheckpointRing.Checkpoint rollback() throws HostException {
        long t0 = System.nanoTime();
        CheckpointRing.Checkpoint cp = latestCheckpoint;
        HostClient.Snapshot snap = HostReplay.snapshotOf(cp);
        for (HostStreams.Stream h : hosts) {
            h.client.restore(snap);
        }
        for (HostStreams.Stream h : hosts) {
            String got = h.client.snapshot().stateHashHex();
            if (!got.equals(cp.hash())) {
                throw new IllegalStateException("recovery check failed: checkpoint " + cp.hash() + ", " + h.name + " "
                        + got);
            }
        }
        for (HostStreams.Stream h : hosts) {
            h.client.inject(unfired(h.index));
            armRepresentation(h);
        }
        fence.advance();
        firedThisEpoch.clear();
        metrics.checkpointRestore().record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        begin(cp);
        hosts[0].frame = (int) cp.frame();
        hosts[1].frame = (int) cp.frame();
        return cp;
    }

    @Override
    public AlertWebhook.Outcome rollbackOnAlert() {
        return policy.order();
    }
}
