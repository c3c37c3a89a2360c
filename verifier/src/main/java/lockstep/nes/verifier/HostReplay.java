package lockstep.nes.verifier;

import java.util.List;
import lockstep.nes.core.trace.TracePair;
import lockstep.nes.verifier.host.HostClient;
import lockstep.nes.verifier.host.HostException;
import lockstep.nes.verifier.host.HostProtocol;

/**
 * Locating a divergence between two engine hosts: both restored to a verified checkpoint and
 * re-run cycle by cycle with digests, to the first cycle whose digests differ; hosts that speak
 * protocol version 6 also send the last instructions they ran.
 */
final class HostReplay {
    private HostReplay() {
    }

    /** A checkpoint as the snapshot a host restores. */
    static HostClient.Snapshot snapshotOf(CheckpointRing.Checkpoint cp) {
        return new HostClient.Snapshot((int) cp.frame(), false, cp.cycle(), new byte[32], cp.snapshot());
    }

    /**
     * What a re-run found: the first differing position (-1: none), and both hosts' last
     * instructions up to where the re-run left them (null when a host does not send them).
     */
    record Replay(long first, TracePair trace) {
    }

    /**
     * Restores both hosts ({@code a}, {@code b}) to {@code cp}, arms the given faults and runs both to {@code cycle}
     * with digests (present-state digests where the stream compared representations).
     */
    static Replay run(HostClient a, HostClient b, boolean representation, CheckpointRing.Checkpoint cp, long cycle,
            List<String> faultsA, List<String> faultsB) throws HostException {
        HostClient.Snapshot snap = snapshotOf(cp);
        boolean traces = a.traces() && b.traces();
        if (traces) {
            // Recording from the restore on (RESTORE starts the record afresh).
            for (HostClient c : new HostClient[] {a, b}) {
                c.sendTrace(DivergenceReport.TRACE_LINES);
                c.awaitTrace();
            }
        }
        a.restore(snap);
        b.restore(snap);
        a.inject(faultsA);
        b.inject(faultsB);
        if (representation) {
            // The re-run compares present-state digests: no revisits needed, whichever faults replay.
            for (HostClient c : new HostClient[] {a, b}) {
                c.revisit(new long[0]);
                c.streamDigests(HostProtocol.DIGEST_PRESENT);
            }
        }
        int batch = 8192;
        a.sendRunStream(cycle, Integer.MAX_VALUE, batch, 0);
        b.sendRunStream(cycle, Integer.MAX_VALUE, batch, 0);
        long n = Math.max(0, cycle - cp.cycle());
        long[] da = new long[(int) Math.min(n, Integer.MAX_VALUE - 8)];
        readReplay(a, da, cp.cycle(), null);
        long[] first = {-1};
        readReplay(b, da, cp.cycle(), first);
        if (!traces) {
            return new Replay(first[0], null);
        }
        a.sendTrace(0);
        b.sendTrace(0);
        return new Replay(first[0], TracePair.ofText(a.awaitTrace(), b.awaitTrace()));
    }

    /** Reads one replay stream: into {@code digests}, or compared against it (first difference in first[0]). */
    private static void readReplay(HostClient c, long[] digests, long base, long[] first) throws HostException {
        while (true) {
            HostClient.StreamEvent e = c.awaitStream();
            if (e instanceof HostClient.RunEnd) {
                return;
            }
            if (e instanceof HostClient.Digests d) {
                for (int i = 0; i < d.digests().length; i++) {
                    long index = d.firstCycle() + i - base - 1;
                    if (index < 0 || index >= digests.length) {
                        continue;
                    }
                    if (first == null) {
                        digests[(int) index] = d.digests()[i];
                    } else if (first[0] < 0 && digests[(int) index] != d.digests()[i]) {
                        first[0] = d.firstCycle() + i;
                    }
                }
            }
        }
    }
}
