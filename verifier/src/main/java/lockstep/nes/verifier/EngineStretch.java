package lockstep.nes.verifier;

import java.util.function.BooleanSupplier;
import lockstep.nes.core.Console;
import lockstep.nes.core.chain.ChainedRun;
import lockstep.nes.core.chain.RepresentationTerm;

/**
 * One engine's side of a lockstep pair, in every mode: runs its console over a stretch (to the
 * frame's end or a given cycle) and fires its faults, its partner's revisits and its planted
 * changes at their exact cycles inside it, never ending a stretch for them.
 *
 * <p>{@link #stretch} folds the stretch into a chain ({@link ChainedRun}: every cycle's bus
 * access and every change of the counted parts) and folds, after each fault or revisit, the
 * representation term it left: a fault's poke changes state without a bus access, so it is
 * folded as the chain folds the counted parts' changes (the partner folds its term after the
 * revisit at the same cycle: equal exactly when the poke changed nothing). The stretch's record
 * joins the representation term at its start (both engines caught up there), the chain and the
 * term at its end: two engines with equal records and cycle counts were equal after every cycle
 * of it (docs/design/chain.md). {@link #cycles} instead publishes the representation term after
 * every cycle ({@code --check every-cycle}).
 *
 * <p>One engine's thread only (each engine's faults and revisits are its own).
 */
public final class EngineStretch {
    /** Odd constants of the record's mix. */
    private static final long K1 = 0x9E3779B97F4A7C15L;
    private static final long K2 = 0xC2B2AE3D27D4EB4FL;
    /** Cycles between two looks at the comparison in {@link #cycles} (a multiple of the ring's batch). */
    static final int COMPARE_EVERY = 1024;
    /** Folded where a skip-cycle fault removes a cycle. */
    private static final long SKIPPED = 0x5C1BB0D5L;

    final int index;
    final Console console;
    final RepresentationTerm terms;
    private final ChainedRun chain;
    private final Faults faults;
    private Revisits revisits;
    /** The engine's cycle count at its last event or record (read by other threads: stalls). */
    volatile long position;

    /** Hears of a stall fault just before the engine sleeps (an engine host tells its controller). */
    public interface StallListener {
        void beforeStall(long cycle);
    }

    private StallListener stallListener;

    /** Cycles a skip-cycle fault removed (a stream counts them as steps). */
    private long skipped;

    public EngineStretch(int index, Console console, Faults faults, Revisits revisits) {
        this.index = index;
        this.console = console;
        this.terms = new RepresentationTerm(console);
        this.chain = new ChainedRun(terms);
        this.faults = faults;
        this.revisits = revisits;
        this.position = console.cycles();
    }

    public Console console() {
        return console;
    }

    Revisits revisits() {
        return revisits;
    }

    /** Sets who hears of stalls ({@link StallListener}). */
    public void onStall(StallListener listener) {
        this.stallListener = listener;
    }

    /** Cycles skip-cycle faults removed so far. */
    public long skipped() {
        return skipped;
    }

    /**
     * Runs the engine until its frame ends or its cycle count reaches {@code limit}, chained, and
     * returns the stretch's record (see the class comment); {@code stop} is asked after a stall
     * (a stopped engine returns at once, its record meaningless).
     */
    public long stretch(long limit, BooleanSupplier stop) throws InterruptedException {
        final Console c = console;
        c.catchUp();
        final long start = terms.term();
        chain.begin();
        final long frame = c.frameAfterCycle();
        while (c.frameAfterCycle() == frame && c.cycles() < limit) {
            final long next = c.cycles() + 1;
            final long due = Math.min(faults.nextDue(index, next), revisits.nextDue(next));
            if (due > next) {
                chain.resume(Math.min(limit, due - 1));
            } else if (!event(next, true, stop)) {
                return 0;
            }
        }
        position = c.cycles();
        return Long.rotateLeft(start * K1 + chain.chain(), 31) * K2 + terms.term();
    }

    /**
     * Runs the engine one cycle at a time until its frame ends or its cycle count reaches
     * {@code limit}, putting its cycle count and representation term after every cycle into
     * {@code ring}; false when {@code stop} was raised (while the ring was full or after a stall).
     * Every {@link #COMPARE_EVERY} cycles the ring is flushed and {@code compare} runs (the
     * comparison of the two streams, done by whichever engine hands over second).
     */
    boolean cycles(long limit, RecordRing ring, BooleanSupplier stop, Runnable compare) throws InterruptedException {
        final Console c = console;
        int block = 0;
        final long frame = c.frameAfterCycle();
        long due = Math.min(faults.nextDue(index, c.cycles() + 1), revisits.nextDue(c.cycles() + 1));
        while (c.frameAfterCycle() == frame && c.cycles() < limit) {
            final long next = c.cycles() + 1;
            if (next < due) {
                c.runCycle();
            } else {
                if (!event(next, false, stop)) {
                    return false;
                }
                due = Math.min(faults.nextDue(index, c.cycles() + 1), revisits.nextDue(c.cycles() + 1));
            }
            if (!ring.put(c.cycles(), terms.term(), stop)) {
                return false;
            }
            if (++block == COMPARE_EVERY) {
                block = 0;
                ring.flush();
                compare.run();
            }
        }
        position = c.cycles();
        return true;
    }

    /**
     * What is due on the step to cycle {@code next}: a stall before it, the cycle itself unless a
     * skip removes it (chained: folded as a skip), then the faults, revisits and planted changes
     * due after it (chained: the representation term they left folded, planted changes
     * excepted). False when stopped (before the event, or after its stall).
     */
    private boolean event(long next, boolean chained, BooleanSupplier stop) throws InterruptedException {
        final Console c = console;
        position = c.cycles();
        if (stop.getAsBoolean()) {
            return false; // a stopped engine fires nothing more
        }
        final long stall = faults.stall(index, next);
        if (stall > 0) {
            if (stallListener != null) {
                stallListener.beforeStall(next);
            }
            Thread.sleep(stall);
            if (stop.getAsBoolean()) {
                return false;
            }
        }
        if (faults.skip(index, next)) {
            skipped++;
            if (chained) {
                chain.fold(SKIPPED);
            }
        } else if (chained) {
            chain.resume(next);
        } else {
            c.runCycle();
        }
        boolean changed = faults.afterCycle(index, c.cycles(), c);
        if (stall > 0) {
            // Its partner is revisited at this cycle too (Faults.revisitsPartner): both cut here alike.
            c.revisit();
            changed = true;
        }
        changed |= revisits.afterCycle(c.cycles(), c);
        if (changed && chained) {
            chain.fold(terms.term());
        }
        return true;
    }
}
