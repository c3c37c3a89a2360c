package lockstep.nes.core.cart;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.Memory;

/**
 * A board's digest term ({@code DigestTerm.of(board)}) as the per-cycle digest and the chain take
 * it, cached. Registers and page tables change only through CPU writes, power, reset and state
 * loads for most boards ({@link #markStale}), so their part is taken through the description
 * only after one of those; the memories' incremental hashes are added fresh every time. A board
 * whose registers also change through another hook ({@link BoardHooks#OUTSIDE_WRITES}) either
 * packs the fields that do in a hot part ({@link Mapper#hotDigestTerm}), the rest cached, with
 * the rest kept once per level of the lines its page tables follow where they do
 * ({@link Mapper#hasLineKeyedDigest}), or is taken through the description every time.
 * docs/design/boards.md, "Declared hooks".
 */
final class BoardTermCache {
    private final Mapper board;
    /** The board's registers change outside CPU writes. */
    private final boolean outsideWrites;

    private boolean stale = true;
    /** The term of the registers and page tables, the hot part left out where there is one. */
    private long scalars;
    private DigestTerm visitor;
    private Memory[] memories = new Memory[0];
    private long[] coefficients = new long[0];
    /** The board has a hot part ({@link Mapper#hasHotDigestTerm}). */
    private boolean hot;
    /** {@code outsideWrites && !hot}: taken through the description every time. */
    private boolean always = true;
    /** A hot board whose page tables follow a few lines: {@link #scalars} kept per level. */
    private boolean keyed;
    /** The registers' term (hot part left out) for each level of the lines, for {@link #keyed}. */
    private final long[] byLine = new long[4];
    /** Bit k set: {@code byLine[k]} holds the registers as they stand. */
    private int lines;
    /** The weights of the register words, for {@link #weight}. */
    private long[] weights;

    BoardTermCache(Mapper board, boolean outsideWrites) {
        this.board = board;
        this.outsideWrites = outsideWrites;
    }

    /** The registers or page tables may have changed other than through the hot fields. */
    void markStale() {
        stale = true;
    }

    /** The board's term. */
    long term() {
        long t = scalarTerm();
        final Memory[] m = memories;
        final long[] k = coefficients;
        for (int i = 0; i < m.length; i++) {
            t += k[i] * m[i].hash();
        }
        return t;
    }

    /** True when both boards' registers, page tables and memories agree (boards of one class). */
    boolean sameAs(BoardTermCache o) {
        if (scalarTerm() != o.scalarTerm()) {
            return false;
        }
        final Memory[] m = memories;
        final Memory[] n = o.memories;
        final int count = m.length;
        if (count != n.length) {
            return false;
        }
        long differ = 0;
        for (int i = 0; i < count; i++) {
            differ |= m[i].hash() ^ n[i].hash();
        }
        return differ == 0;
    }

    /** How much the term grows per CPU cycle with nothing else changing (see {@link Mapper#digestTermPerCycle}). */
    long perCycle() {
        return hot ? board.clockDigestWeight() : 0;
    }

    /** The weight of the k-th word of the board's registers in its term. */
    long weight(int k) {
        return weights[k];
    }

    /** The term of the registers and page tables (all but the memories), refreshed as needed. */
    private long scalarTerm() {
        if (stale | always) {
            refresh();
        }
        if (keyed) {
            final int line = board.hotDigestLine();
            if ((lines >> line & 1) == 0) {
                refresh();
            }
            return byLine[line] + board.hotDigestTerm();
        }
        return hot ? scalars + board.hotDigestTerm() : scalars;
    }

    private void refresh() {
        DigestTerm d = visitor;
        if (d == null) {
            d = new DigestTerm();
            visitor = d;
        }
        scalars = d.termWithoutMemories(board);
        int n = d.memoryCount();
        if (n != memories.length) {
            memories = new Memory[n];
            coefficients = new long[n];
        }
        for (int i = 0; i < n; i++) {
            memories[i] = d.memory(i);
            coefficients[i] = d.coefficient(i);
        }
        hot = outsideWrites && board.hasHotDigestTerm();
        always = outsideWrites && !hot;
        if (hot) {
            if (weights == null) {
                // Register words follow the words of CIRAM, PRG-RAM and CHR-RAM (Mapper.state).
                int first = 1 + (board.prgRam != null ? 1 : 0) + (board.chrRam != null ? 1 : 0);
                weights = new long[32];
                for (int k = 0; k < weights.length; k++) {
                    weights[k] = DigestKeys.w(first + k);
                }
            }
            scalars -= board.hotDigestTerm();
        }
        keyed = hot && board.hasLineKeyedDigest();
        if (keyed) {
            // A write (or a load) made the other levels' terms stale too; a level's first
            // sighting since does not.
            final int line = board.hotDigestLine();
            lines = (stale ? 0 : lines) | 1 << line;
            byLine[line] = scalars;
        }
        stale = false;
    }
}
