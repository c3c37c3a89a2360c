package lockstep.nes.verifier.host;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.trace.TraceLine;
import lockstep.nes.core.trace.TraceRing;

/**
 * What an engine host records of its cycle-by-cycle runs for a divergence's report (TRACE,
 * protocol version 6): nothing until a controller asks, then the last instructions of the runs
 * that follow, recorded afresh after every TRACE, LOAD_ROM and RESTORE.
 */
final class HostTrace {
    private TraceRing ring;
    private int capacity;

    /** The ring the runs observe, or null while nothing is recorded. */
    TraceRing ring() {
        return ring;
    }

    /** The instructions recorded so far, oldest first. */
    List<TraceLine> recorded() {
        return ring == null ? List.of() : ring.lines();
    }

    /** From now on records the last {@code capacity} instructions (0: nothing), from where {@code console} stands. */
    void record(int capacity, Console console) {
        this.capacity = capacity;
        restart(console);
    }

    /** Records afresh from where {@code console} (null: none yet) stands. */
    void restart(Console console) {
        ring = capacity == 0 ? null : new TraceRing(capacity);
        if (ring != null && console != null) {
            ring.observe(console);
        }
    }
}
