package lockstep.nes.verifier;

import java.util.List;
import lockstep.nes.core.Console;

/**
 * The cycles after which an engine is revisited ({@link Console#revisit}) because its partner
 * gets a state fault there: a fault's poke goes through the partner's {@code state()}, which
 * catches its lazily stepped PPU and APU up and computes its deadlines afresh; the revisit does
 * the same to this engine, changing nothing, so that the two stay represented alike and a fault
 * that writes the value already there shows no divergence in the representation digests the
 * threads and processes modes compare ({@code CycleDigest#representation}). Each fires once,
 * like the fault it mirrors. One engine's thread only.
 */
public final class Revisits {
    /** No revisits. */
    public static final Revisits NONE = new Revisits(new long[0]);

    private final long[] cycles;
    private final boolean[] done;

    public Revisits(long[] cycles) {
        this.cycles = cycles.clone();
        this.done = new boolean[cycles.length];
    }

    /**
     * The revisits of engine {@code engine}: one per state fault or stall of the other engines in
     * {@code specs} (every one of them fires when its engine reaches its cycle;
     * {@link Faults#revisitsPartner}).
     */
    public static Revisits forPartnerFaults(List<FaultSpec> specs, int engine) {
        long[] c = new long[specs.size()];
        int n = 0;
        for (FaultSpec f : specs) {
            if (f.engine() != engine && Faults.revisitsPartner(f)) {
                c[n++] = f.cycle();
            }
        }
        return new Revisits(java.util.Arrays.copyOf(c, n));
    }

    /** Revisits {@code c} once for each revisit due after it completed {@code cycle}; true if any was. */
    public boolean afterCycle(long cycle, Console c) {
        final long[] at = cycles;
        boolean any = false;
        for (int i = 0; i < at.length; i++) {
            if (at[i] == cycle && !done[i]) {
                done[i] = true;
                c.revisit();
                any = true;
            }
        }
        return any;
    }

    /** The earliest revisit not yet done at or after {@code from}, or {@link Long#MAX_VALUE}. */
    public long nextDue(long from) {
        long due = Long.MAX_VALUE;
        for (int i = 0; i < cycles.length; i++) {
            if (!done[i] && cycles[i] >= from && cycles[i] < due) {
                due = cycles[i];
            }
        }
        return due;
    }

    /** Copies which revisits are done into {@code into} (sized {@link #size}), to {@link #restore} on a re-run. */
    public void save(boolean[] into) {
        System.arraycopy(done, 0, into, 0, done.length);
    }

    /** Which revisits were done, as {@link #save} copied them. */
    public void restore(boolean[] from) {
        System.arraycopy(from, 0, done, 0, done.length);
    }

    public int size() {
        return cycles.length;
    }

    /** The cycles, in the order given. */
    public long[] cycles() {
        return cycles.clone();
    }
}
