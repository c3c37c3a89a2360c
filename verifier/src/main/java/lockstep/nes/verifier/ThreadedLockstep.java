package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.chain.RepresentationTerm;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.snapshot.SnapshotException;

/**
 * Threads mode: each engine runs on its own thread and publishes the representation digest of
 * every cycle ({@code CycleDigest#representation}: nothing caught up, O(1); its term, which
 * compares alike) to a bounded
 * single-producer ring; the verifier thread consumes both rings and compares them cycle by
 * cycle. The drift offset is the cycle distance between the two engines. Representation digests
 * of two engines are equal exactly when their states are, as long as both catch their lazy
 * parts up at the same cycles: both do the same per frame (input, checkpoints), the frame loop
 * asks {@code frameAfterCycle()} (no catch-up), and each engine thread knows the whole fault
 * plan, so an engine is revisited wherever its partner gets a state fault ({@link Revisits}).
 *
 * <p>Pacing: an engine more than {@link #PACE} cycles ahead of the other waits for it (up to
 * {@link #PACE_PATIENCE_NANOS}); if the other does not come (it is stalled), the engine runs on
 * until its ring is full, so a stall shows as a growing drift. A drift over
 * {@link Lockstep.Options#maxDrift} held for {@link Lockstep.Options#stallMillis} is a stall.
 *
 * <p>On a digest mismatch both engines stop, and both are re-run single-threaded from the last
 * checkpoint on which they agree to the divergent cycle, first without the injected faults
 * (does the difference reproduce?) and then replaying the faults that fired, to name the
 * differing fields. Rollback abandons the engine threads (a stalled one becomes a zombie) and
 * starts new engines from the checkpoint in a new epoch: every write of an old thread — its
 * checkpoint candidates and its results — is refused by the epoch fence.
 */
final class ThreadedLockstep implements VerifySession {
    static final int PACE = 32;
    static final long PACE_PATIENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int RING = 1 << 16;

    private final Cartridge cart;
    private final Lockstep.Options options;
    private final EpochFence fence = new EpochFence();
    private final CheckpointRing checkpoints;
    private final SessionMetrics metrics;
    private final Backoff backoff;
    private final Faults faults;
    private final Lockstep.AlertGate gate = new Lockstep.AlertGate();
    /** Results of engine threads that finished, written through the fence. */
    private final List<String> results = new ArrayList<>();
    /** Checkpoint candidates by frame, per engine: [hash, snapshot]. */
    private final Map<Integer, Object[]>[] candidates;

    @SuppressWarnings("unchecked")
    ThreadedLockstep(Cartridge cart, Lockstep.Options options, Function<EpochFence, SessionMetrics> metrics) {
        this.cart = cart;
        this.options = options;
        this.checkpoints = new CheckpointRing(Math.max(1, options.checkpointsKept), fence);
        this.metrics = metrics.apply(fence);
        this.backoff = new Backoff(options.backoffBaseMillis, options.backoffCapMillis, options.backoffSeed);
        this.faults = new Faults(options.faults);
        this.candidates = new Map[] {new TreeMap<Integer, Object[]>(), new TreeMap<Integer, Object[]>()};
    }

    @Override
    public EpochFence fence() {
        return fence;
    }

    @Override
    public List<FaultSpec> firedFaults() {
        return faults.firedSpecs();
    }

    List<String> results() {
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    /** One engine's thread for one epoch. */
    private final class EngineThread implements Runnable {
        final int index;
        final long epoch;
        final Engine engine;
        final DigestRing ring = new DigestRing(RING);
        final int startFrame;
        /** Revisits where the other engine's state faults fire (the plan as this epoch starts). */
        final Revisits revisits;
        volatile boolean stop;
        volatile boolean finished;
        volatile int framesDone;
        EngineThread other;
        final BooleanSupplier stopped = () -> stop;
        Thread thread;

        EngineThread(int index, long epoch, Engine engine, int startFrame, Revisits revisits) {
            this.index = index;
            this.revisits = revisits;
            this.epoch = epoch;
            this.engine = engine;
            this.startFrame = startFrame;
            this.framesDone = startFrame;
        }

        @Override
        public void run() {
            Console c = engine.console;
            RepresentationTerm term = new RepresentationTerm(c);
            int frame = startFrame;
            try {
                while (frame < options.frames && !stop) {
                    options.input.apply(frame, c);
                    // frameAfterCycle: exact between cycles without catching the PPU up (frame()
                    // would, every cycle, and the digest below is of the state as represented).
                    long start = c.frameAfterCycle();
                    while (c.frameAfterCycle() == start) {
                        if (stop) {
                            return;
                        }
                        long seq = ring.published();
                        pace(seq);
                        long next = c.cycles() + 1;
                        long stall = faults.stall(index, next);
                        if (stall > 0) {
                            Thread.sleep(stall);
                        }
                        if (!faults.skip(index, next)) {
                            c.runCycle();
                        }
                        faults.afterCycle(index, c.cycles(), c);
                        revisits.afterCycle(c.cycles(), c);
                        // The representation digest's term: its finaliser is a bijection, so
                        // comparing terms is comparing digests, without the finaliser per cycle.
                        if (!ring.publish(term.term(), stopped)) {
                            return;
                        }
                    }
                    frame++;
                    framesDone = frame;
                    if (frame % options.checkpointEvery == 0) {
                        offerCheckpoint(this, frame, c.cycles(), engine.snapshots.stateHash(), engine.snapshots.save());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                finished = true;
                // The engine's result: refused if a rollback superseded this thread meanwhile.
                String line = "engine " + engine.name + " epoch " + epoch + " stopped at frame " + frame
                        + " cycle " + c.cycles();
                fence.write(epoch, () -> {
                    synchronized (results) {
                        results.add(line);
                    }
                });
            }
        }

        /** Waits (briefly) while this engine is more than PACE cycles ahead of the other. */
        private void pace(long seq) {
            EngineThread o = other;
            if (seq - o.ring.published() <= PACE || o.finished) {
                return;
            }
            long deadline = System.nanoTime() + PACE_PATIENCE_NANOS;
            while (seq - o.ring.published() > PACE && !o.finished && !stop) {
                if (System.nanoTime() > deadline) {
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    private void offerCheckpoint(EngineThread t, int frame, long cycle, String hash, byte[] snapshot) {
        fence.write(t.epoch, () -> {
            synchronized (candidates) {
                candidates[t.index].put(frame, new Object[] {hash, snapshot, cycle});
                Object[] mine = candidates[t.index].get(frame);
                Object[] theirs = candidates[1 - t.index].get(frame);
                if (theirs != null) {
                    if (mine[0].equals(theirs[0])) {
                        checkpoints.add(new CheckpointRing.Checkpoint(frame, cycle, t.epoch, snapshot, hash));
                    }
                    candidates[0].remove(frame);
                    candidates[1].remove(frame);
                }
            }
        });
    }

    /** Runs the session. */
    @Override
    public Lockstep.Result run() throws InterruptedException, RomFormatException {
        List<DivergenceReport> divergences = new ArrayList<>();
        int rollbacks = 0;
        long verified = 0;
        Engine first = new Engine("A", cart);
        checkpoints.add(new CheckpointRing.Checkpoint(0, first.console.cycles(), fence.current(),
                first.snapshots.save(), first.snapshots.stateHash()));
        CheckpointRing.Checkpoint from = checkpoints.latest();
        while (true) {
            EngineThread[] threads = startThreads(from);
            long startCycle = from.cycle();
            long compared = 0;
            long driftSince = -1;
            String event = null;
            long eventSeq = -1;
            int stalledEngine = -1;
            while (true) {
                if (options.stopRequested.getAsBoolean()) {
                    threads[0].stop = true;
                    threads[1].stop = true;
                    throw new Lockstep.Stopped(Math.min(threads[0].framesDone, threads[1].framesDone));
                }
                long pa = threads[0].ring.published();
                long pb = threads[1].ring.published();
                long upTo = Math.min(pa, pb);
                for (long n = compared; n < upTo; n++) {
                    if (threads[0].ring.get(n) != threads[1].ring.get(n)) {
                        event = "divergence";
                        eventSeq = n;
                        break;
                    }
                }
                if (event != null) {
                    verified += eventSeq - compared;
                    break;
                }
                verified += upTo - compared;
                compared = upTo;
                threads[0].ring.consumeUpTo(upTo);
                threads[1].ring.consumeUpTo(upTo);
                long drift = pa - pb;
                metrics.setDrift(drift);
                metrics.setProgress(0, startCycle + pa, threads[0].framesDone);
                metrics.setProgress(1, startCycle + pb, threads[1].framesDone);
                if (Math.abs(drift) > options.maxDrift) {
                    long now = System.nanoTime();
                    if (driftSince < 0) {
                        driftSince = now;
                    } else if (now - driftSince > TimeUnit.MILLISECONDS.toNanos(options.stallMillis)) {
                        event = "stall";
                        stalledEngine = drift > 0 ? 1 : 0;
                        eventSeq = Math.min(pa, pb);
                        break;
                    }
                } else {
                    driftSince = -1;
                }
                if (threads[0].finished && threads[1].finished && threads[0].ring.published() == compared
                        && threads[1].ring.published() == compared) {
                    break;
                }
                if (upTo == compared) {
                    Thread.sleep(0, 200_000);
                }
            }
            if (event == null) {
                Lockstep.Result r = new Lockstep.Result(threads[0].framesDone, verified,
                        threads[0].engine.snapshots.stateHash(), divergences, rollbacks, true, "");
                return r;
            }
            // Stop both engines (a stalled one cannot hear it: it becomes a zombie).
            threads[0].stop = true;
            threads[1].stop = true;
            metrics.setDivergence(true);
            metrics.divergence();
            if (options.rollback == Lockstep.Rollback.ON_ALERT) {
                gate.beginHalt();
            }
            long cycle = startCycle + eventSeq + 1;
            DivergenceReport report = event.equals("stall")
                    ? stallReport(threads[stalledEngine], cycle)
                    : reRun(from, cycle);
            divergences.add(report);
            if (options.progress != null) {
                options.progress.print(report.toText());
            }
            if (options.deadLetter != null) {
                options.deadLetter.result(fence.current(), Map.of("type", event, "report", report));
            }
            if (options.rollback == Lockstep.Rollback.OFF || rollbacks >= options.maxRollbacks) {
                return new Lockstep.Result(threads[0].framesDone, verified, null, divergences, rollbacks, false,
                        options.rollback == Lockstep.Rollback.OFF ? event + " (rollback off)" : "too many rollbacks");
            }
            if (options.rollback == Lockstep.Rollback.ON_ALERT) {
                if (!gate.await(options.alertWaitMillis)) {
                    return new Lockstep.Result(threads[0].framesDone, verified, null, divergences, rollbacks, false,
                            event + ": no rollback ordered within " + options.alertWaitMillis + " ms");
                }
            } else {
                Thread.sleep(backoff.nextDelayMillis());
            }
            // Roll back: a new epoch; the old threads' late writes will be refused.
            from = checkpoints.latest();
            fence.advance();
            synchronized (candidates) {
                candidates[0].clear();
                candidates[1].clear();
            }
            rollbacks++;
            metrics.rollback();
            metrics.setDivergence(false);
            if (options.progress != null) {
                options.progress.printf("rollback: new engines from %s, epoch %d%n",
                        CheckpointRing.where(from.frame(), from.cycle()), fence.current());
            }
            gate.rolledBack("rolled back to frame " + from.frame() + ", epoch " + fence.current());
        }
    }

    private EngineThread[] startThreads(CheckpointRing.Checkpoint from) throws RomFormatException {
        long epoch = fence.current();
        EngineThread[] t = new EngineThread[2];
        for (int i = 0; i < 2; i++) {
            Engine e = new Engine(i == 0 ? "A" : "B", cart);
            try {
                e.snapshots.load(from.snapshot(), from.snapshot().length, "checkpoint");
            } catch (SnapshotException ex) {
                throw new IllegalStateException(ex.getMessage(), ex);
            }
            if (!e.snapshots.stateHash().equals(from.hash())) {
                throw new IllegalStateException("recovery check failed: engine " + e.name + " does not hash to the checkpoint");
            }
            t[i] = new EngineThread(i, epoch, e, (int) from.frame(), faults.partnerRevisits(i));
        }
        t[0].other = t[1];
        t[1].other = t[0];
        for (EngineThread x : t) {
            x.thread = new Thread(x, "engine-" + x.engine.name + "-epoch-" + epoch);
            x.thread.setDaemon(true);
            x.thread.start();
        }
        return t;
    }

    private DivergenceReport stallReport(EngineThread stalled, long cycle) {
        Console c = stalled.engine.console;
        return new DivergenceReport(options.session, options.romName, "threads", cycle, c.frame(), -1, -1, "", "",
                List.of(new DivergenceReport.FieldDifference("engine " + stalled.engine.name + " stalled",
                        "drift > " + options.maxDrift + " cycles", "for " + options.stallMillis + " ms")),
                true, "engine " + stalled.engine.name + " stopped publishing after cycle " + (cycle - 1)
                        + " while the other ran on", faultNames(faults.firedSpecs()));
    }

    /**
     * Re-runs both engines single-threaded from the checkpoint to the divergent cycle: first with
     * no faults (does the difference reproduce?), then replaying the faults that fired (to name the
     * fields).
     */
    private DivergenceReport reRun(CheckpointRing.Checkpoint from, long cycle) throws RomFormatException {
        List<FaultSpec> fired = faults.firedSpecs();
        Console[] clean = replayTo(from, cycle, List.of());
        boolean reproduced = Lockstep.digestsDiffer(clean[0], clean[1]);
        if (reproduced) {
            return Lockstep.localize(options, clean[0], clean[1], "threads", true,
                    "re-run from the checkpoint at frame " + from.frame() + " reproduces it", faultNames(fired));
        }
        Console[] replay = replayTo(from, cycle, fired);
        return Lockstep.localize(options, replay[0], replay[1], "threads", false,
                "does not reproduce on a re-run from the checkpoint at frame " + from.frame()
                        + " (a one-shot fault); fields shown with the injected faults replayed", faultNames(fired));
    }

    private Console[] replayTo(CheckpointRing.Checkpoint from, long cycle, List<FaultSpec> replayFaults)
            throws RomFormatException {
        Engine a = new Engine("A", cart);
        Engine b = new Engine("B", cart);
        try {
            a.snapshots.load(from.snapshot(), from.snapshot().length, "checkpoint");
            b.snapshots.load(from.snapshot(), from.snapshot().length, "checkpoint");
        } catch (SnapshotException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        Faults f = Faults.replay(replayFaults);
        int frame = (int) from.frame();
        Engine[] both = {a, b};
        while (a.console.cycles() < cycle) {
            options.input.apply(frame, a.console);
            options.input.apply(frame, b.console);
            long start = a.console.frame();
            while (a.console.frame() == start && a.console.cycles() < cycle) {
                for (int i = 0; i < 2; i++) {
                    Console c = both[i].console;
                    if (!f.skip(i, c.cycles() + 1)) {
                        c.runCycle();
                    }
                    f.afterCycle(i, c.cycles(), c);
                }
            }
            if (a.console.frame() != start) {
                frame++;
            }
        }
        return new Console[] {a.console, b.console};
    }

    private static List<String> faultNames(List<FaultSpec> specs) {
        List<String> out = new ArrayList<>();
        for (FaultSpec f : specs) {
            out.add(f.toString());
        }
        return out;
    }

    @Override
    public AlertWebhook.Outcome rollbackOnAlert() {
        return gate.order(options.session);
    }
}
