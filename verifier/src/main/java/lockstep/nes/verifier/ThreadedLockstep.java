package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.core.trace.TraceRing;

/**
 * Threads mode: each engine runs on its own thread, as fast as one engine alone, and hands its
 * records over to the verifier thread through a lock-free single-producer ring
 * ({@link RecordRing}); the verifier compares the two streams record by record.
 *
 * <ul>
 * <li>{@code --check chained} (the default): a record per stretch (a frame), the same chain the
 *     same-thread mode folds ({@link EngineStretch#stretch}: the representation at the stretch's
 *     start, every bus access and counted change, every fault or revisit, the representation at
 *     its end), with the engine's cycle count. Faults fire at their cycles inside stretches.
 * <li>{@code --check every-cycle}: a record per cycle, the representation term after it
 *     ({@link EngineStretch#cycles}), published in batches.
 * </ul>
 *
 * <p>Representation terms of two engines are equal exactly when their states are, as long as
 * both catch their lazy parts up at the same cycles: both do the same per frame (input,
 * checkpoints, a stretch's start), the frame loop asks {@code frameAfterCycle()} (no catch-up),
 * and each engine thread knows the whole fault plan, so an engine is revisited wherever its
 * partner gets a state fault ({@link Revisits}).
 *
 * <p>Drift is the cycle distance between the two engines at their latest handoffs; the ring's
 * capacity bounds it (back-pressure: an engine whose ring is full waits for the verifier, which
 * consumes only what both published). An engine that makes no handoff for
 * {@link Lockstep.Options#stallMillis} while the other is over {@link Lockstep.Options#maxDrift}
 * cycles ahead is stalled.
 *
 * <p>On a differing record both engines stop, and both are re-run single-threaded from the last
 * checkpoint on which they agree, one cycle at a time, to the first cycle at which their digests
 * differ: first without the injected faults (does the difference reproduce?), then replaying the
 * faults that fired, to name the differing fields. Rollback abandons the engine threads (a
 * stalled one becomes a zombie) and starts new engines from the checkpoint in a new epoch: every
 * write of an old thread — its checkpoint candidates and its results — is refused by the epoch
 * fence. The divergence policy is {@link DivergencePolicy}'s.
 */
final class ThreadedLockstep implements VerifySession {
    /** Records an engine may run ahead: stretches (chained) or cycles (every cycle). */
    static final int CHAINED_RING = 256;
    static final int CYCLE_RING = 1 << 18;
    /** More CPU cycles than any region's frame has (NTSC 29,781, PAL and Dendy under 35,500). */
    static final int FRAME_CYCLES_BOUND = 36_000;

    private final Cartridge cart;
    private final Lockstep.Options options;
    private final boolean everyCycle;
    private final EpochFence fence = new EpochFence();
    private final CheckpointRing checkpoints;
    private final SessionMetrics metrics;
    private final Faults faults;
    private final DivergencePolicy policy;
    /** Results of engine threads that finished, written through the fence. */
    private final List<String> results = new ArrayList<>();
    /** Checkpoint candidates by frame, per engine: [hash, snapshot]. */
    private final Map<Integer, Object[]>[] candidates;
    /**
     * Checkpoints both engines offered with equal hashes, not yet verified: the engines run ahead
     * of the comparison, and a state equal at a frame's end may follow a difference that healed
     * (guarded by {@link #candidates}' lock).
     */
    private final List<CheckpointRing.Checkpoint> pending = new ArrayList<>();
    /** True while {@link #pending} may hold a checkpoint (read by the comparison without the lock). */
    private volatile boolean pendingCheckpoints;
    /** The CPU, wall and waiting times of every engine thread that ended (the benchmark's figures). */
    private final List<EngineThreadTimes> times = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Where the first epoch starts (null: power-on). */
    private byte[] start;

    @SuppressWarnings("unchecked")
    ThreadedLockstep(Cartridge cart, Lockstep.Options options, Function<EpochFence, SessionMetrics> metrics) {
        this.cart = cart;
        this.options = options;
        this.everyCycle = options.check == Lockstep.Check.EVERY_CYCLE;
        this.checkpoints = new CheckpointRing(Math.max(1, options.checkpointsKept), fence);
        this.metrics = metrics.apply(fence);
        // An engine runs up to a full ring ahead of the other by design (back-pressure).
        this.metrics.setDriftAllowance(everyCycle ? CYCLE_RING : (long) CHAINED_RING * FRAME_CYCLES_BOUND);
        this.faults = new Faults(options.faults);
        this.policy = new DivergencePolicy(options, this.metrics, fence);
        this.candidates = new Map[] {new TreeMap<Integer, Object[]>(), new TreeMap<Integer, Object[]>()};
    }

    /** Starts the first epoch from {@code snapshot} (a state of this cartridge) instead of power-on. */
    void startFrom(byte[] snapshot) {
        this.start = snapshot.clone();
    }

    /** Plants a change into engine {@code engine} after its cycle {@code cycle} (tests; {@link Faults#plant}). */
    void plant(int engine, long cycle, java.util.function.Consumer<Console> change) {
        faults.plant(engine, cycle, change);
    }

    @Override
    public EpochFence fence() {
        return fence;
    }

    @Override
    public List<FaultSpec> firedFaults() {
        return faults.firedSpecs();
    }

    @Override
    public List<EngineThreadTimes> engineThreadTimes() {
        return List.copyOf(times);
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
        final EngineStretch stretch;
        final RecordRing ring = new RecordRing(everyCycle ? CYCLE_RING : CHAINED_RING);
        final int startFrame;
        /** The epoch's comparison, which this thread runs when it hands over second. */
        Comparison comparison;
        volatile boolean stop;
        volatile boolean finished;
        volatile int framesDone;
        final BooleanSupplier stopped = () -> stop;
        Thread thread;

        EngineThread(int index, long epoch, Engine engine, int startFrame, Revisits revisits) {
            this.index = index;
            this.epoch = epoch;
            this.engine = engine;
            this.startFrame = startFrame;
            this.framesDone = startFrame;
            this.stretch = new EngineStretch(index, engine.console, faults, revisits);
        }

        @Override
        public void run() {
            final long t0 = System.nanoTime();
            Console c = engine.console;
            int frame = startFrame;
            try {
                while (frame < options.frames && !stop) {
                    options.input.apply(frame, c);
                    if (everyCycle) {
                        if (!stretch.cycles(Long.MAX_VALUE, ring, stopped, comparison)) {
                            return;
                        }
                    } else {
                        final long record = stretch.stretch(Long.MAX_VALUE, stopped);
                        if (stop || !ring.put(c.cycles(), record, stopped)) {
                            return;
                        }
                    }
                    ring.flush();
                    comparison.run();
                    frame++;
                    framesDone = frame;
                    if (frame % options.checkpointEvery == 0) {
                        offerCheckpoint(this, frame, c.cycles(), engine.snapshots.stateHash(), engine.snapshots.save());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ring.flush();
                comparison.run();
                times.add(EngineThreadTimes.ofCurrentThread(System.nanoTime() - t0));
                finished = true;
                comparison.wake();
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
    }

    /**
     * The comparison of one epoch's two streams. No thread of its own: whichever engine thread
     * hands over second compares what both have published (the first finds nothing new), so a
     * record is compared as soon as both exist and no thread polls. It runs under a try-lock:
     * a thread that finds it taken goes on emulating, and the holder looks again after
     * releasing it, so no handoff is left uncompared. The session's thread only waits to be
     * woken (a difference, an engine's end) and watches for stalls.
     */
    private final class Comparison implements Runnable {
        final RecordRing ra;
        final RecordRing rb;
        final Thread waiter;
        private final AtomicInteger busy = new AtomicInteger();
        /** Records compared (written under {@link #busy}; read by the session's thread). */
        volatile long compared;
        /** Up to where both streams were equal, and the cycles verified this epoch (under {@link #busy}). */
        private long lastEqual;
        private long verified;
        /** A difference: the first cycle at which it was seen (written before {@link #diverged}). */
        long eventCycle = -1;
        volatile boolean diverged;

        Comparison(RecordRing ra, RecordRing rb, long from, Thread waiter) {
            this.ra = ra;
            this.rb = rb;
            this.lastEqual = from;
            this.waiter = waiter;
        }

        @Override
        public void run() {
            while (busy.compareAndSet(0, 1)) {
                final long upTo;
                try {
                    if (diverged) {
                        return;
                    }
                    upTo = Math.min(ra.published(), rb.published());
                    long n = compared;
                    for (; n < upTo; n++) {
                        final long cycle = ra.cycle(n);
                        if (cycle != rb.cycle(n) || ra.value(n) != rb.value(n)) {
                            eventCycle = Math.max(cycle, rb.cycle(n));
                            break;
                        }
                        verified += cycle - lastEqual;
                        lastEqual = cycle;
                    }
                    compared = n;
                    ra.consumeUpTo(n);
                    rb.consumeUpTo(n);
                    if (pendingCheckpoints) {
                        promote(lastEqual);
                    }
                    if (n < upTo) {
                        diverged = true;
                        wake();
                        return;
                    }
                } finally {
                    busy.set(0);
                }
                // A handoff made while the lock was held found it taken: look again for it.
                if (Math.min(ra.published(), rb.published()) <= upTo) {
                    return;
                }
            }
        }

        void wake() {
            LockSupport.unpark(waiter);
        }

        /** Up to where both streams were equal; read by the session's thread after {@link #diverged} or the end. */
        long lastEqual() {
            while (!busy.compareAndSet(0, 1)) {
                Thread.onSpinWait();
            }
            try {
                return lastEqual;
            } finally {
                busy.set(0);
            }
        }

        long verified() {
            while (!busy.compareAndSet(0, 1)) {
                Thread.onSpinWait();
            }
            try {
                return verified;
            } finally {
                busy.set(0);
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
                        // Verified once the streams were compared up to it (promote).
                        pending.add(new CheckpointRing.Checkpoint(frame, cycle, t.epoch, snapshot, hash));
                        pendingCheckpoints = true;
                    }
                    candidates[0].remove(frame);
                    candidates[1].remove(frame);
                }
            }
        });
    }

    /** Pending checkpoints at or before {@code cycle}, up to which the streams were equal, become verified. */
    private void promote(long cycle) {
        while (true) {
            CheckpointRing.Checkpoint cp;
            synchronized (candidates) {
                if (pending.isEmpty() || pending.get(0).cycle() > cycle) {
                    pendingCheckpoints = !pending.isEmpty();
                    return;
                }
                cp = pending.remove(0);
            }
            // Outside the candidates' lock: an engine's offer takes the fence's lock, then that one.
            fence.write(cp.epoch(), () -> checkpoints.add(cp));
        }
    }

    /** How long the session's thread waits between its looks at the engines (stalls, progress, signals). */
    private static final long WATCH_NANOS = 20_000_000L;

    /** Runs the session. */
    @Override
    public Lockstep.Result run() throws InterruptedException, RomFormatException {
        long verified = 0;
        Engine first = new Engine("A", cart);
        if (start != null) {
            load(first, start);
        }
        checkpoints.add(new CheckpointRing.Checkpoint(0, first.console.cycles(), fence.current(),
                first.snapshots.save(), first.snapshots.stateHash()));
        CheckpointRing.Checkpoint from = checkpoints.latest();
        while (true) {
            // Which faults had fired as the epoch starts: a re-run from its checkpoint replays
            // those that fired since, and a rollback re-arms those fired past the divergence.
            boolean[] firedAtStart = new boolean[faults.flagCount()];
            faults.saveFired(firedAtStart);
            EngineThread[] threads = startThreads(from);
            Comparison cmp = threads[0].comparison;
            StallWatch[] watch = {new StallWatch(options.stallMillis, from.cycle()),
                new StallWatch(options.stallMillis, from.cycle())};
            StallReport[] open = new StallReport[2];
            String hung = null;
            while (true) {
                if (options.stopRequested.getAsBoolean()) {
                    threads[0].stop = true;
                    threads[1].stop = true;
                    // Engine A's state where it stopped (it may have run past the comparison).
                    threads[0].thread.join(options.stallMillis);
                    String hash = threads[0].thread.isAlive() ? null : threads[0].engine.snapshots.stateHash();
                    options.endProgress();
                    return policy.result(Math.min(threads[0].framesDone, threads[1].framesDone),
                            verified + cmp.verified(), hash, false, Lockstep.INTERRUPTED);
                }
                if (cmp.diverged) {
                    break;
                }
                long now = System.nanoTime();
                long[] at = {threads[0].stretch.position, threads[1].stretch.position};
                for (int i = 0; i < 2; i++) {
                    if (watch[i].observe(at[i], now) && open[i] != null) {
                        policy.stallEnded(open[i]);
                        open[i] = null;
                    }
                }
                long drift = at[0] - at[1];
                metrics.setDrift(drift);
                metrics.setProgress(0, at[0], threads[0].framesDone);
                metrics.setProgress(1, at[1], threads[1].framesDone);
                // A stall: the engine behind silent past its threshold while the other ran ahead
                // (both slow is a busy machine, not a stall). Reported, never rolled back for.
                int behind = drift > 0 ? 1 : 0;
                if (Math.abs(drift) > options.maxDrift && !threads[behind].finished
                        && watch[behind].newStall(now)) {
                    open[behind] = stallReport(threads[behind], watch[behind], at[1 - behind], now);
                    policy.stall(open[behind]);
                }
                if (!threads[behind].finished && watch[behind].stalled()
                        && watch[behind].silentNanos(now) > TimeUnit.MILLISECONDS.toNanos(options.hangMillis)) {
                    hung = "engine " + threads[behind].engine.name + " hung: silent for "
                            + TimeUnit.NANOSECONDS.toMillis(watch[behind].silentNanos(now)) + " ms after cycle "
                            + at[behind];
                    break;
                }
                if (threads[0].finished && threads[1].finished) {
                    cmp.run(); // both ended: what both published is compared
                    if (!cmp.diverged && cmp.compared == threads[0].ring.published()
                            && cmp.compared == threads[1].ring.published()) {
                        break;
                    }
                    if (cmp.diverged) {
                        break;
                    }
                    // Both ended, all compared, one handed over fewer records: it ended early.
                    throw new IllegalStateException("an engine thread ended after " + Math.min(
                            threads[0].framesDone, threads[1].framesDone) + " frames, its partner after "
                            + Math.max(threads[0].framesDone, threads[1].framesDone));
                }
                LockSupport.parkNanos(this, WATCH_NANOS);
            }
            // Wait for both to notice a stop or their end before reading what they left.
            if (!cmp.diverged && hung == null) {
                threads[0].thread.join();
                threads[1].thread.join();
                verified += cmp.verified();
                return policy.result(threads[0].framesDone, verified, threads[0].engine.snapshots.stateHash(), true, "");
            }
            // Stop both engines and let a running one finish the event it is in (a hung one
            // cannot hear it: it is abandoned, and its late writes are refused by the fence).
            threads[0].stop = true;
            threads[1].stop = true;
            if (hung != null) {
                fence.advance();
                verified += cmp.verified();
                return policy.result(Math.min(threads[0].framesDone, threads[1].framesDone), verified, null, false, hung);
            }
            for (int i = 0; i < 2; i++) {
                threads[i].thread.join(Math.max(options.stallMillis, 1_000));
            }
            long lastEqual = cmp.lastEqual();
            verified += cmp.verified();
            long eventCycle = cmp.eventCycle;
            policy.raise();
            DivergenceReport report = reRun(from, lastEqual, eventCycle, firedAtStart);
            // The engine ahead may have fired faults past the divergence: they fire again after
            // the rollback, where they are checked.
            faults.rearmFiredSince(firedAtStart, report.cycle());
            String stop = policy.decide(report, "divergence",
                    (dl, epoch) -> dl.result(epoch, Map.of("type", "divergence", "report", report)));
            if (stop != null) {
                return policy.result(threads[0].framesDone, verified, null, false, stop);
            }
            // Roll back: a new epoch; the old threads' late writes will be refused.
            from = checkpoints.latest();
            fence.advance();
            synchronized (candidates) {
                candidates[0].clear();
                candidates[1].clear();
                pending.clear();
                pendingCheckpoints = false;
            }
            policy.rolledBack(from, "new engines from %s, epoch %d");
        }
    }

    private void load(Engine e, byte[] snapshot) {
        try {
            e.snapshots.load(snapshot, snapshot.length, "checkpoint");
        } catch (SnapshotException ex) {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
    }

    private EngineThread[] startThreads(CheckpointRing.Checkpoint from) throws RomFormatException {
        long epoch = fence.current();
        EngineThread[] t = new EngineThread[2];
        for (int i = 0; i < 2; i++) {
            Engine e = new Engine(i == 0 ? "A" : "B", cart);
            // Nothing the threads compare reads a picture (output, not state); the re-run that
            // locates a difference draws the pictures its report shows (replay).
            e.console.drawPicture(false);
            load(e, from.snapshot());
            if (!e.snapshots.stateHash().equals(from.hash())) {
                throw new IllegalStateException("recovery check failed: engine " + e.name + " does not hash to the checkpoint");
            }
            t[i] = new EngineThread(i, epoch, e, (int) from.frame(), faults.partnerRevisits(i));
        }
        Comparison cmp = new Comparison(t[0].ring, t[1].ring, from.cycle(), Thread.currentThread());
        t[0].comparison = cmp;
        t[1].comparison = cmp;
        for (EngineThread x : t) {
            x.thread = new Thread(x, "engine-" + x.engine.name + "-epoch-" + epoch);
            x.thread.setDaemon(true);
            x.thread.start();
        }
        return t;
    }

    private StallReport stallReport(EngineThread stalled, StallWatch watch, long partner, long now) {
        return new StallReport(options.session, options.romName, "threads", "engine " + stalled.engine.name,
                watch.position(), stalled.framesDone, TimeUnit.NANOSECONDS.toMillis(watch.silentNanos(now)),
                TimeUnit.NANOSECONDS.toMillis(watch.thresholdNanos()), partner, false);
    }

    /**
     * Locates a difference the streams showed between cycle {@code lastEqual} (both agreed
     * there) and {@code detected}: both engines are re-run single-threaded from the checkpoint,
     * compared after every cycle, to the first that differs. First with no faults (does the
     * difference reproduce?), then replaying the faults that fired (to name the fields).
     */
    private DivergenceReport reRun(CheckpointRing.Checkpoint from, long lastEqual, long detected, boolean[] firedAtStart)
            throws RomFormatException {
        List<FaultSpec> fired = faults.firedSince(firedAtStart, detected);
        Console[] clean = firstDifference(from, detected, List.of());
        if (clean != null) {
            return Lockstep.localize(options, clean[0], clean[1], "threads", true,
                    "re-run from the checkpoint at frame " + from.frame() + " reproduces it", faultNames(fired),
                    trace(from, clean, List.of()));
        }
        Console[] replay = firstDifference(from, detected, fired);
        if (replay == null) {
            replay = replayTo(from, detected, fired);
            return Lockstep.localize(options, replay[0], replay[1], "threads", false,
                    "found by the streams between cycles " + lastEqual + " and " + detected + ", but not when they were "
                            + "re-run cycle by cycle from the checkpoint at frame " + from.frame()
                            + ": the engines are not deterministic", faultNames(fired), trace(from, replay, fired));
        }
        return Lockstep.localize(options, replay[0], replay[1], "threads", false,
                "does not reproduce on a re-run from the checkpoint at frame " + from.frame()
                        + " (a one-shot fault); fields shown with the injected faults replayed", faultNames(fired),
                trace(from, replay, fired));
    }

    /**
     * Both engines re-run from the checkpoint with {@code replayFaults} (and the planted
     * changes), one cycle at a time, compared after each: the two consoles standing at the first
     * cycle whose digests differ, or null if none does up to cycle {@code upTo}.
     */
    private Console[] firstDifference(CheckpointRing.Checkpoint from, long upTo, List<FaultSpec> replayFaults)
            throws RomFormatException {
        return replay(from, upTo, replayFaults, true);
    }

    /** Both engines re-run from the checkpoint with {@code replayFaults} to cycle {@code cycle}. */
    private Console[] replayTo(CheckpointRing.Checkpoint from, long cycle, List<FaultSpec> replayFaults)
            throws RomFormatException {
        return replay(from, cycle, replayFaults, false);
    }

    /**
     * Both engines' last instructions up to where {@code at} stand, from one more re-run from the
     * checkpoint with {@code replayFaults}. A separate pass because reading an instruction
     * catches the lazily stepped PPU up, which would change the cycle at which the
     * representations compared by the first pass show a difference.
     */
    private TracePair trace(CheckpointRing.Checkpoint from, Console[] at, List<FaultSpec> replayFaults)
            throws RomFormatException {
        replay(from, Math.max(at[0].cycles(), at[1].cycles()), replayFaults, false, true);
        return replayTrace;
    }

    /** Both engines' last instructions on the last traced {@link #replay}, up to where it left them. */
    private TracePair replayTrace;

    private Console[] replay(CheckpointRing.Checkpoint from, long cycle, List<FaultSpec> replayFaults, boolean first)
            throws RomFormatException {
        return replay(from, cycle, replayFaults, first, false);
    }

    private Console[] replay(CheckpointRing.Checkpoint from, long cycle, List<FaultSpec> replayFaults, boolean first,
                             boolean trace) throws RomFormatException {
        Engine a = new Engine("A", cart);
        Engine b = new Engine("B", cart);
        load(a, from.snapshot());
        load(b, from.snapshot());
        Faults f = faults.replay(replayFaults);
        int frame = (int) from.frame();
        Engine[] both = {a, b};
        final int n = DivergenceReport.TRACE_LINES;
        TraceRing[] rings = trace ? new TraceRing[] {new TraceRing(n), new TraceRing(n)} : null;
        if (trace) {
            rings[0].observe(a.console);
            rings[1].observe(b.console);
        }
        while (Math.max(a.console.cycles(), b.console.cycles()) < cycle) {
            options.input.apply(frame, a.console);
            options.input.apply(frame, b.console);
            long start = a.console.frameAfterCycle();
            while (a.console.frameAfterCycle() == start && Math.max(a.console.cycles(), b.console.cycles()) < cycle) {
                for (int i = 0; i < 2; i++) {
                    Console c = both[i].console;
                    if (!f.skip(i, c.cycles() + 1)) {
                        c.runCycle();
                    }
                    f.afterCycle(i, c.cycles(), c);
                    if (trace) {
                        rings[i].observe(c);
                    }
                }
                if (first && a.digest.differsFrom(b.digest)) {
                    return new Console[] {a.console, b.console};
                }
            }
            if (a.console.frameAfterCycle() != start) {
                frame++;
            }
        }
        if (trace) {
            replayTrace = TracePair.of(rings[0].lines(), rings[1].lines());
        }
        return first ? null : new Console[] {a.console, b.console};
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
        return policy.order();
    }
}
