package lockstep.nes.verifier;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;

/**
 * Same-thread lockstep driven one frame at a time by a frontend that owns engine A (the
 * desktop app): engine B is built from A's cartridge and starts from a snapshot of A, then every
 * CPU cycle both are stepped and their cycle digests compared, as {@link Lockstep} does. On the
 * first mismatch both stop at that cycle and {@link #report()} localises it.
 *
 * <p>Faults ({@link FaultSpec}, cycles counted on each engine's own clock) let a user see what a
 * divergence looks like.
 */
public final class LivePair {
    private final Console a;
    private final Console b;
    private final CycleDigest digestA;
    private final CycleDigest digestB;
    private final Faults faults;
    private final Lockstep.Options options = new Lockstep.Options();
    private long verified;
    private DivergenceReport report;

    /** Starts B from a snapshot of {@code a}; {@code a} is not changed. */
    public LivePair(Console a, String romName, List<FaultSpec> faults) throws RomFormatException {
        this.a = a;
        this.b = Console.create(a.cartridge());
        Snapshots sa = new Snapshots(a);
        try {
            new Snapshots(b).load(sa.save());
        } catch (SnapshotException e) {
            // Both engines run the same build and ROM: a snapshot of one always loads into the other.
            throw new IllegalStateException("engine B cannot load engine A's snapshot: " + e.getMessage(), e);
        }
        this.digestA = new CycleDigest(a);
        this.digestB = new CycleDigest(b);
        this.faults = new Faults(faults);
        options.session = "desktop";
        options.romName = romName;
    }

    /** Engine B (for tests and displays). */
    public Console second() {
        return b;
    }

    /**
     * Applies the same buttons to both engines and runs A's frame, comparing after every cycle.
     * Returns false (and keeps both at the divergent cycle) when the digests differ. Does nothing
     * once diverged.
     */
    public boolean runFrame(int buttons0, int buttons1) {
        if (report != null) {
            return false;
        }
        a.setButtons(0, buttons0);
        a.setButtons(1, buttons1);
        b.setButtons(0, buttons0);
        b.setButtons(1, buttons1);
        long frame = a.frame();
        while (a.frameAfterCycle() == frame) {
            if (!faults.skip(0, a.cycles() + 1)) {
                a.runCycle();
            }
            if (!faults.skip(1, b.cycles() + 1)) {
                b.runCycle();
            }
            faults.afterCycle(0, a.cycles(), a);
            faults.afterCycle(1, b.cycles(), b);
            if (digestA.differsFrom(digestB)) {
                List<String> fired = new ArrayList<>();
                for (FaultSpec f : faults.firedSpecs()) {
                    fired.add(f.toString());
                }
                report = Lockstep.localize(options, a, b, "same-thread", true, "", fired, null);
                return false;
            }
            verified++;
        }
        return true;
    }

    /** Soft reset of both engines (the user pressed reset while verifying). */
    public void reset() {
        a.reset();
        b.reset();
    }

    /**
     * A disk system's disk commands (FCEUX's movie bits: 4 insert/eject, 8 next side) on both
     * engines; nothing for a cartridge.
     */
    public void diskCommands(int commands) {
        if (a.mapper() instanceof lockstep.nes.core.cart.fds.FdsBoard da
                && b.mapper() instanceof lockstep.nes.core.cart.fds.FdsBoard db) {
            da.movieCommands(commands);
            db.movieCommands(commands);
        }
    }

    /** Power cycle of both engines. */
    public void power() {
        a.power();
        b.power();
    }

    public boolean diverged() {
        return report != null;
    }

    /** The divergence report, or null while both agree. */
    public DivergenceReport report() {
        return report;
    }

    /** Cycles after which both engines agreed (the divergent one not counted). */
    public long cyclesVerified() {
        return verified;
    }

    /** Cycles A is ahead of B: 0 in same-thread mode unless a fault skipped a cycle. */
    public long drift() {
        return a.cycles() - b.cycles();
    }
}
