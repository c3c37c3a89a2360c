package lockstep.nes.verifier;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import lockstep.nes.ppu.Region;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Disassembler;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.state.Describer;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.core.trace.TraceRing;
import lockstep.nes.state.StateDiff;

/**
 * Two engines fed the same input stream, compared after every CPU cycle (same-thread mode).
 *
 * <p>{@link Check#CHAINED} (the default): each engine runs the frame alone ({@link EngineStretch}),
 * its faults and its partner's revisits fired at their cycles inside it, folding every cycle's
 * bus access, every change of the counted parts and every fault or revisit into a running hash;
 * the two hashes and representations are compared at the frame's end; equal, they were equal
 * after every cycle (the argument is in docs/design/chain.md). A difference found so is located
 * by re-running the frame cycle by cycle from snapshots of both engines taken as it started
 * ({@link #relocate}). {@link Check#EVERY_CYCLE}: both engines are stepped one cycle at a time
 * and their digests compared after each.
 *
 * <p>On a mismatch the divergence flag goes up, input stops, and the report names the cycle,
 * frame, scanline/dot, the instruction executing and every differing {@code component.field}.
 * Then, by policy ({@link DivergencePolicy}), both engines are restored from the last verified checkpoint (recovery
 * first checks that both hash to the checkpoint's stored hash), a new epoch begins, and the run
 * resumes after an exponential backoff with full jitter; or the engines stay halted with the flag
 * up until the alert webhook orders the rollback.
 */
public final class Lockstep implements VerifySession {

    /** What happens after a divergence. */
    public enum Rollback { AUTO, ON_ALERT, OFF }

    /**
     * What the two engines' comparison sees (docs/design/verification.md). {@code CHAINED}: each
     * engine runs a stretch (a frame) alone, folding every bus access, every change of the
     * counted parts and every fault or revisit into a chain; chains and whole representations are
     * compared at the stretch's end. {@code EVERY_CYCLE}: the whole representation of both engines
     * compared after every CPU cycle (it also sees a CPU-internal difference that heals before any
     * bus access, which the chain does not).
     */
    public enum Check { CHAINED, EVERY_CYCLE }

    /** Settings of one run. */
    public static final class Options {
        public String session = "lockstep";
        public String romName = "";
        public int frames = 600;
        public int checkpointEvery = 60;
        /** Checkpoints kept: 2 minutes of frames at the default interval. */
        public int checkpointsKept = 120;
        public List<FaultSpec> faults = List.of();
        public Rollback rollback = Rollback.AUTO;
        /** What is compared: {@link Check}. */
        public Check check = Check.CHAINED;
        public long backoffSeed = 0x10CC57E9L;
        public long backoffBaseMillis = 50;
        public long backoffCapMillis = 5_000;
        public int maxRollbacks = 8;
        /** How long {@link Rollback#ON_ALERT} waits for the webhook before giving up. */
        public long alertWaitMillis = 600_000;
        public InputSource input = InputSource.NONE;
        /**
         * A snapshot both engines load before the run (null: both start powered on): a run of
         * some frames from an agreed state, as netplay's localisation of a desync makes. The
         * input source's frame 0 is then the snapshot's frame.
         */
        public byte[] start;
        /** Threads/processes modes: a drift over this many cycles ... */
        public int maxDrift = 50;
        /**
         * ... held this long is a stall (or longer where the pace measured so far is slower:
         * {@link StallWatch}). A stall is reported, never rolled back for.
         */
        public long stallMillis = 1_000;
        /** Threads mode: a stalled engine silent this long is hung, and the run ends (processes mode: the host timeout). */
        public long hangMillis = 60_000;
        public PrintStream progress;
        /**
         * True when {@link #progress} is a terminal: each update rewrites one line ('\r');
         * otherwise (a file, a pipe) each update is a plain line.
         */
        public boolean progressInPlace;
        /**
         * Polled as the run goes (same-thread mode: at each frame; the other modes: while they
         * compare): true ends the run (a signal asked it to stop) with a result that keeps what
         * was found so far, not completed, stop reason {@link #INTERRUPTED}.
         */
        public java.util.function.BooleanSupplier stopRequested = () -> false;
        private boolean progressOpen;
        public DeadLetter deadLetter;

        /** Prints one progress update (if there is a progress stream). */
        public void progress(String update) {
            if (progress == null) {
                return;
            }
            if (progressInPlace) {
                progress.print("\r" + update);
                progressOpen = true;
            } else {
                progress.println(update);
            }
            progress.flush();
        }

        /** Ends an in-place progress line before other output goes to {@link #progress}. */
        public void endProgress() {
            if (progress != null && progressOpen) {
                progress.println();
                progressOpen = false;
            }
        }
    }

    /** The stop reason of a run ended on request ({@link Options#stopRequested}). */
    public static final String INTERRUPTED = "interrupted";

    /**
     * The outcome of a run.
     *
     * @param stalls the stalls seen (threads and processes modes): never divergences, never rolled back for
     */
    public record Result(long frames, long cyclesVerified, String finalStateHash,
                         List<DivergenceReport> divergences, int rollbacks, boolean completed, String stopReason,
                         List<StallReport> stalls) {
        public boolean diverged() {
            return !divergences.isEmpty();
        }

        /** True when a stop request ended the run ({@link Options#stopRequested}). */
        public boolean interrupted() {
            return !completed && INTERRUPTED.equals(stopReason);
        }

        public boolean stalled() {
            return !stalls.isEmpty();
        }
    }

    private final Options options;
    private final Engine a;
    private final Engine b;
    private final EpochFence fence = new EpochFence();
    private final CheckpointRing checkpoints;
    private final SessionMetrics metrics;
    private final Faults faults;
    private final DivergencePolicy policy;
    /** Each engine's side: its stretches with its faults and its partner's revisits. */
    private final EngineStretch stretchA;
    private final EngineStretch stretchB;
    /** Which faults and revisits had fired as the current frame started (see relocate). */
    private boolean[] firedAtFrameStart;
    private final boolean[][] revisitedAtFrameStart;
    /** Differences found over a chained stretch and located by re-running their frame (for tests). */
    int relocations;
    /** Each engine's state as the current frame started (see relocate). */
    private final Snapshots frameStartA;
    private final Snapshots frameStartB;
    /** Both engines' last instructions on the last {@link #relocate} (null before one, or in every-cycle mode). */
    private TracePair relocatedTrace;

    /**
     * @param metrics builds the session's metrics from its epoch fence (which counts the stale
     *                writes it rejects)
     */
    public Lockstep(Cartridge cart, Options options, java.util.function.Function<EpochFence, SessionMetrics> metrics)
            throws RomFormatException {
        this.options = options;
        this.a = new Engine("A", cart);
        this.b = new Engine("B", cart);
        this.checkpoints = new CheckpointRing(Math.max(1, options.checkpointsKept), fence);
        this.metrics = metrics.apply(fence);
        this.faults = new Faults(options.faults);
        this.policy = new DivergencePolicy(options, this.metrics, fence);
        this.stretchA = new EngineStretch(0, a.console, faults, faults.partnerRevisits(0));
        this.stretchB = new EngineStretch(1, b.console, faults, faults.partnerRevisits(1));
        this.firedAtFrameStart = new boolean[faults.flagCount()];
        this.revisitedAtFrameStart = new boolean[][] {new boolean[stretchA.revisits().size()],
            new boolean[stretchB.revisits().size()]};
        this.frameStartA = new Snapshots(a.console);
        this.frameStartB = new Snapshots(b.console);
    }

    @Override
    public List<FaultSpec> firedFaults() {
        return faults.firedSpecs();
    }

    @Override
    public EpochFence fence() {
        return fence;
    }

    public CheckpointRing checkpoints() {
        return checkpoints;
    }

    Engine engine(int i) {
        return i == 0 ? a : b;
    }

    /** Runs the session to its end (or until it stops on a divergence it may not recover from). */
    @Override
    public Result run() throws InterruptedException {
        long verified = 0;
        int frame = 0;
        if (options.start != null) {
            try {
                a.snapshots.load(options.start, options.start.length, "start snapshot");
                b.snapshots.load(options.start, options.start.length, "start snapshot");
            } catch (SnapshotException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        checkpoint(0);
        long lastProgress = System.nanoTime();
        final boolean chained = options.check == Check.CHAINED;
        drawPictures(!chained);
        final Console ca = a.console;
        final Console cb = b.console;
        final CycleDigest da = a.digest;
        final CycleDigest db = b.digest;
        while (frame < options.frames) {
            if (options.stopRequested.getAsBoolean()) {
                // At a frame boundary, every cycle so far verified: the state both engines share.
                options.endProgress();
                return policy.result(frame, verified, a.snapshots.stateHash(), false, INTERRUPTED);
            }
            options.input.apply(frame, ca);
            options.input.apply(frame, cb);
            boolean diverged = false;
            String note = "";
            if (chained) {
                // Both engines saved as the frame starts: a difference the frame's stretch shows
                // is located by re-running the frame from here one cycle at a time (relocate).
                final int startA = frameStartA.saveToBuffer();
                final int startB = frameStartB.saveToBuffer();
                final long startCycle = ca.cycles();
                faults.saveFired(firedAtFrameStart);
                stretchA.revisits().save(revisitedAtFrameStart[0]);
                stretchB.revisits().save(revisitedAtFrameStart[1]);
                // Each engine runs the frame alone, its faults and its partner's revisits at
                // their cycles inside it, folding every cycle into its chain; the records
                // (representations at both ends, chain) and cycle counts are compared at its end.
                final long ra = stretchA.stretch(Long.MAX_VALUE, NEVER);
                final long rb = stretchB.stretch(Long.MAX_VALUE, NEVER);
                if (ca.cycles() != cb.cycles() || ra != rb) {
                    diverged = true;
                    relocations++;
                    if (!relocate(startA, startB, startCycle, Math.max(ca.cycles(), cb.cycles()))) {
                        note = NOT_REPRODUCED_NOTE;
                    }
                } else {
                    verified += ca.cycles() - startCycle;
                }
            } else {
                // Every cycle: both engines stepped and their digests compared after each. The
                // frame's start is kept, as for a stretch, so that a divergence's report can show
                // both engines' last instructions (re-run once more, recording them).
                final int startA = frameStartA.saveToBuffer();
                final int startB = frameStartB.saveToBuffer();
                faults.saveFired(firedAtFrameStart);
                stretchA.revisits().save(revisitedAtFrameStart[0]);
                stretchB.revisits().save(revisitedAtFrameStart[1]);
                final long startFrame = ca.frameAfterCycle();
                long steps = 0;
                while (ca.frameAfterCycle() == startFrame) {
                    stepEngine(a, 0, ca.cycles() + 1);
                    stepEngine(b, 1, cb.cycles() + 1);
                    applyStateFaults();
                    verified++;
                    steps++;
                    if (da.differsFrom(db)) { // = digests differ (see differsFrom)
                        diverged = true;
                        relocatedTrace = retrace(startA, startB, steps);
                        break;
                    }
                }
            }
            // The per-cycle check compares the parts that change only on events when a change
            // was counted (RepresentationTerm.sameAs); a change no path counted would slip by
            // it. The whole digests, once a frame, make sure such a change is still caught.
            if (!diverged && da.digest() != db.digest()) {
                diverged = true;
                note = LATE_NOTE;
            }
            if (!diverged) {
                frame++;
                report(verified, frame);
                if (frame % options.checkpointEvery == 0) {
                    checkpoint(frame);
                }
                if (options.progress != null && System.nanoTime() - lastProgress > 1_000_000_000L) {
                    lastProgress = System.nanoTime();
                    options.progress(String.format("verify: frame %d/%d, %d cycles verified", frame, options.frames,
                            verified));
                }
                continue;
            }
            policy.raise();
            DivergenceReport r = localize(note);
            String stop = policy.decide(r, "divergence", (dl, epoch) -> dl.divergence(epoch, r, ca, cb));
            if (stop != null) {
                return policy.result(frame, verified, null, false, stop);
            }
            CheckpointRing.Checkpoint cp = rollback();
            drawPictures(!chained);
            frame = (int) cp.frame();
            policy.rolledBack(cp, "both engines restored to %s, epoch %d, recovery verified");
        }
        options.endProgress();
        String hashA = a.snapshots.stateHash();
        return policy.result(frame, verified, hashA, true, "");
    }

    private static final java.util.function.BooleanSupplier NEVER = () -> false;

    /** Runs one cycle of engine {@code e} unless a skip-cycle fault removes it. */
    private void stepEngine(Engine e, int index, long cycle) {
        if (!faults.skip(index, cycle)) {
            e.console.runCycle();
        }
    }

    /** Bit flips and register writes due now (each engine by its own cycle count), and their revisits. */
    private void applyStateFaults() {
        faults.afterCycle(0, a.console.cycles(), a.console);
        faults.afterCycle(1, b.console.cycles(), b.console);
        // The partners' revisits, as the stretches make them (they change nothing), so that
        // each fires once with its fault, whichever way the cycle was run.
        stretchA.revisits().afterCycle(a.console.cycles(), a.console);
        stretchB.revisits().afterCycle(b.console.cycles(), b.console);
    }

    /** True when the two consoles' cycle digests differ. */
    static boolean digestsDiffer(Console x, Console y) {
        return new CycleDigest(x).digest() != new CycleDigest(y).digest();
    }

    private void report(long verified, int frame) {
        metrics.setProgress(0, a.console.cycles(), a.console.frame());
        metrics.setProgress(1, b.console.cycles(), b.console.frame());
        metrics.setDrift(a.console.cycles() - b.console.cycles());
    }

    private void checkpoint(int frame) {
        long t0 = System.nanoTime();
        String ha = a.snapshots.stateHash();
        String hb = b.snapshots.stateHash();
        if (!ha.equals(hb)) {
            // The digests agreed but the canonical snapshots do not: never store it as verified.
            return;
        }
        byte[] snap = a.snapshots.save();
        checkpoints.add(new CheckpointRing.Checkpoint(frame, a.console.cycles(), fence.current(), snap, ha));
        metrics.checkpointSave().record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
    }

    /** Restores the last verified checkpoint into both engines and verifies the recovery. */
    private CheckpointRing.Checkpoint rollback() {
        long t0 = System.nanoTime();
        CheckpointRing.Checkpoint cp = checkpoints.latest();
        try {
            a.snapshots.load(cp.snapshot(), cp.snapshot().length, "checkpoint");
            b.snapshots.load(cp.snapshot(), cp.snapshot().length, "checkpoint");
        } catch (SnapshotException e) {
            throw new IllegalStateException("checkpoint does not load: " + e.getMessage(), e);
        }
        // Recovery mode: both engines must hash to the checkpoint's stored hash.
        String ha = a.snapshots.stateHash();
        String hb = b.snapshots.stateHash();
        if (!ha.equals(cp.hash()) || !hb.equals(cp.hash())) {
            throw new IllegalStateException("recovery check failed: checkpoint " + cp.hash() + ", A " + ha + ", B " + hb);
        }
        fence.advance();
        metrics.checkpointRestore().record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        return cp;
    }

    private DivergenceReport localize(String note) {
        List<String> fired = new ArrayList<>();
        for (FaultSpec f : faults.firedSpecs()) {
            fired.add(f.toString());
        }
        TracePair trace = relocatedTrace;
        relocatedTrace = null;
        return localize(options, a.console, b.console, "same-thread", note.isEmpty(), note, fired, trace);
    }

    /**
     * After a stretch found the engines different by cycle {@code detected}: both are
     * restored to the frame's start ({@code startA}/{@code startB} bytes of the frame-start
     * snapshots, at cycle {@code startCycle}), the faults due after it re-armed, and the frame
     * re-run one cycle at a time, compared after each, up to the first differing cycle, where
     * both engines are left, their last instructions in {@link #relocatedTrace}. False when no
     * cycle up to {@code detected} differs (the engines are left there, with their trace).
     */
    private boolean relocate(int startA, int startB, long startCycle, long detected) {
        // The frame re-run draws its picture, which the report's dead letter shows.
        drawPictures(true);
        restoreFrameStart(startA, startB);
        final Console ca = a.console;
        final Console cb = b.console;
        long steps = 0;
        boolean found = false;
        while (ca.cycles() < detected) {
            stepEngine(a, 0, ca.cycles() + 1);
            stepEngine(b, 1, cb.cycles() + 1);
            applyStateFaults();
            steps++;
            if (a.digest.differsFrom(b.digest)) {
                found = true;
                break;
            }
        }
        relocatedTrace = retrace(startA, startB, steps);
        return found;
    }

    /**
     * Whether both engines draw their pictures. A chained stretch's engines do not: nothing
     * compared or hashed reads a picture (it is output, not state), and a frame re-run to locate
     * a difference draws the frame that the dead letter shows.
     */
    private void drawPictures(boolean on) {
        a.console.drawPicture(on);
        b.console.drawPicture(on);
    }

    /** Both engines restored to the frame's start, the faults and revisits as they were then. */
    private void restoreFrameStart(int startA, int startB) {
        try {
            a.snapshots.load(frameStartA.buffer(), startA, "frame start");
            b.snapshots.load(frameStartB.buffer(), startB, "frame start");
        } catch (SnapshotException e) {
            throw new IllegalStateException("frame-start snapshot does not load: " + e.getMessage(), e);
        }
        // The faults and revisits as the frame started: those that fired in it fire again.
        faults.restoreFired(firedAtFrameStart);
        stretchA.revisits().restore(revisitedAtFrameStart[0]);
        stretchB.revisits().restore(revisitedAtFrameStart[1]);
    }

    /**
     * The frame's first {@code steps} cycles run once more from its start, as {@link #relocate}
     * ran them, recording each engine's instructions: both end where relocate left them, in the
     * same state. A separate pass because reading an instruction catches the lazily stepped PPU
     * up, which would change the cycle at which the representations compared by the first pass
     * show a difference.
     */
    private TracePair retrace(int startA, int startB, long steps) {
        restoreFrameStart(startA, startB);
        final Console ca = a.console;
        final Console cb = b.console;
        TraceRing ta = new TraceRing(DivergenceReport.TRACE_LINES);
        TraceRing tb = new TraceRing(DivergenceReport.TRACE_LINES);
        ta.observe(ca);
        tb.observe(cb);
        for (long i = 0; i < steps; i++) {
            stepEngine(a, 0, ca.cycles() + 1);
            stepEngine(b, 1, cb.cycles() + 1);
            applyStateFaults();
            ta.observe(ca);
            tb.observe(cb);
        }
        return TracePair.of(ta.lines(), tb.lines());
    }

    /** The note of a difference seen over a chained stretch that re-running its frame did not show. */
    static final String NOT_REPRODUCED_NOTE = "found over a stretch of cycles, but not when its frame was re-run "
            + "cycle by cycle from its start: the engines are not deterministic";

    /** The note of a divergence the per-cycle check missed and the end-of-frame digests found. */
    static final String LATE_NOTE = "found by the end-of-frame digest check, not the per-cycle check: "
            + "the first divergent cycle is at or before this one (a change the per-cycle check did not count)";

    /**
     * The report for two engines standing at their first divergent cycle, with their last
     * instructions ({@code trace}, null when the re-run did not record them).
     */
    static DivergenceReport localize(Options options, Console ca, Console cb, String mode, boolean reproduced,
                                     String note, List<String> faults, TracePair trace) {
        List<DivergenceReport.FieldDifference> fields =
                DivergenceReport.fields(StateDiff.diff(Describer.describe(ca), Describer.describe(cb)));
        int pc = ca.cpu().instructionPc();
        // An engine that skipped a cycle stands one behind: the step is the other's cycle.
        return new DivergenceReport(options.session, options.romName, mode, Math.max(ca.cycles(), cb.cycles()), ca.frame(),
                ca.ppu().scanline(), ca.ppu().dot(), String.format("$%04X", pc),
                Disassembler.disassemble(pc, ca::peek), fields, reproduced, note, faults, trace);
    }

    @Override
    public AlertWebhook.Outcome rollbackOnAlert() {
        return policy.order();
    }

    /** Plants a change into engine {@code engine} after its cycle {@code cycle} (tests; {@link Faults#plant}). */
    void plant(int engine, long cycle, java.util.function.Consumer<Console> change) {
        faults.plant(engine, cycle, change);
        firedAtFrameStart = new boolean[faults.flagCount()];
    }

    /**
     * Where a session halted on a divergence waits for the alert webhook: the run thread halts,
     * the webhook orders the rollback and waits until the run thread has done it.
     */
    static final class AlertGate {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private boolean halted;
        private boolean ordered;
        private String outcome = "";

        /** The engines stop here; from now on the webhook may order the rollback. */
        void beginHalt() {
            lock.lock();
            try {
                halted = true;
                ordered = false;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** Waits for the order; false if none came within {@code millis} (the halt ends). */
        boolean await(long millis) throws InterruptedException {
            lock.lock();
            try {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
                while (!ordered) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        halted = false;
                        return false;
                    }
                    changed.awaitNanos(left);
                }
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** The rollback is done: release the webhook waiting in {@link #order}. */
        void rolledBack(String message) {
            lock.lock();
            try {
                if (halted) {
                    halted = false;
                    ordered = false;
                    outcome = message;
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }

        /** Called by the webhook: orders the rollback of a halted session and waits for it. */
        AlertWebhook.Outcome order(String session) {
            lock.lock();
            try {
                if (!halted) {
                    return new AlertWebhook.Outcome(false, "session " + session + " is not halted on a divergence");
                }
                ordered = true;
                changed.signalAll();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (halted) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return new AlertWebhook.Outcome(false, "rollback ordered but not finished within 30 s");
                    }
                    changed.awaitNanos(left);
                }
                return new AlertWebhook.Outcome(true, outcome);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new AlertWebhook.Outcome(false, "interrupted");
            } finally {
                lock.unlock();
            }
        }
    }
}
