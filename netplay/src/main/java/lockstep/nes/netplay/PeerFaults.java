package lockstep.nes.netplay;

import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.Faults;

/**
 * The faults planted into this peer's engine ({@code --inject}, verify's syntax; engine A is the
 * host, B the joiner). Each is part of how this engine runs, as an engine built differently
 * would run: it fires every time a frame containing its cycle is simulated, re-simulations
 * after a rollback included, so a rollback cannot hide it.
 */
final class PeerFaults {
    /**
     * More CPU cycles than any frame lasts: 341 x 262 dots / 3 on NTSC (29,781), 341 x 312 dots
     * / 3.2 on PAL (33,248), 341 x 312 / 3 on Dendy (35,464).
     */
    private static final long LONGEST_FRAME = 40_000;

    private final List<FaultSpec> specs;
    private final int engine;

    /**
     * Checks that {@code specs} are state faults of engine {@code engine} (A: the host, B: the
     * joiner); throws IllegalArgumentException with a one-line reason otherwise.
     */
    static void check(List<FaultSpec> specs, int engine) {
        for (FaultSpec f : specs) {
            if (!Faults.changesState(f)) {
                throw new IllegalArgumentException("bad --inject '" + f + "': netplay plants state faults "
                        + "(ram-bitflip, vram-bitflip, reg)");
            }
            if (f.engine() != engine) {
                throw new IllegalArgumentException("bad --inject '" + f + "': engine " + f.engineName()
                        + " is the " + (f.engine() == 0 ? "host" : "joiner") + "; this peer is engine "
                        + (engine == 0 ? "A (the host)" : "B (the joiner)"));
            }
        }
    }

    PeerFaults(List<FaultSpec> specs, int engine) {
        this.specs = List.copyOf(specs);
        this.engine = engine;
    }

    List<FaultSpec> specs() {
        return specs;
    }

    /** Runs one frame of {@code c}: whole when no fault is due in it, else cycle by cycle up to each. */
    void runFrame(Console c) {
        long due = nextDue(c.cycles());
        if (due - c.cycles() > LONGEST_FRAME) {
            c.runFrame();
            return;
        }
        final long frame = c.frameAfterCycle();
        while (due != Long.MAX_VALUE && c.frameAfterCycle() == frame) {
            // Cycle by cycle to the fault's cycle: this frame may end first.
            while (c.frameAfterCycle() == frame && c.cycles() < due) {
                c.runCycle();
            }
            if (c.cycles() == due) {
                fire(c, due);
            }
            due = nextDue(c.cycles());
        }
        if (c.frameAfterCycle() == frame) {
            c.runFrame();
        }
    }

    private void fire(Console c, long cycle) {
        for (FaultSpec f : specs) {
            if (f.cycle() != cycle) {
                continue;
            }
            new Faults(List.of(f)).afterCycle(engine, cycle, c);
        }
    }

    /** The first fault cycle after {@code now}, or Long.MAX_VALUE. */
    private long nextDue(long now) {
        long due = Long.MAX_VALUE;
        for (FaultSpec f : specs) {
            long at = f.cycle();
            if (at > now && at < due) {
                due = at;
            }
        }
        return due;
    }
}
