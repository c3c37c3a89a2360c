package lockstep.nes.core.digest;

import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;

import lockstep.nes.core.Console;
import lockstep.nes.core.chain.RepresentationTerm;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Stateful;

/**
 * The 64-bit digest of a whole machine, cheap enough to take after every CPU cycle.
 *
 * <p>It is defined over the described state: {@link DigestTerm} packs each section's values, in
 * visiting order, into 64-bit words and sums them with odd weights (child sections scaled by
 * an odd factor of their name), a {@link lockstep.nes.state.Memory} contributing its
 * incremental hash (O(1)) instead of its bytes; the names and kinds of all entries, in order,
 * form a layout seed, and the digest is {@code fmix64(term ^ seed)}. No Java object layout is
 * involved: two engines whose descriptions agree have equal digests, and changing any single
 * described value changes the term.
 *
 * <p>{@link #digest()} takes the root's fast path when it has one ({@link Digestible}: the
 * {@code Console} and its components pack their fields directly, without a visitor, and the
 * mapper caches its register term between CPU writes); tests prove it equal to
 * {@link #reference()}, the visitor over the description. {@link #recompute()} is the reference
 * with every memory hash recomputed from its bytes (the check that the incremental hashes are
 * right).
 *
 * <p>{@link #representation()} is the <em>representation digest</em> of a {@link Console}: the
 * same formula over each component's described state as it stands, lazily stepped parts (PPU,
 * APU) as of their last catch-up with their clocks, nothing caught up. It costs the per-cycle
 * values (clocks, open bus, RAM hash, CPU) plus one cached term and one finaliser, and equals
 * {@link #digest()} whenever the PPU and APU are caught up ({@link Console#catchUp}). Its
 * finaliser is a bijection, so two representation digests are equal exactly when the two
 * {@link RepresentationTerm#term}s are: a stream that only compares may carry the terms.
 * Two engines of one cartridge with equal representation digests are in equal states; two engines fed the same
 * input have equal representation digests at every cycle as long as both catch up alike (see
 * {@link RepresentationTerm#term}), which is how threads and processes modes stream them.
 */
public final class CycleDigest {
    private final Stateful root;
    private final Digestible fast;
    private final Console console;
    /** The console root's representation (null for other roots). */
    private final RepresentationTerm represented;
    private final long layoutSeed;
    private final DigestTerm visitor = new DigestTerm();

    public CycleDigest(Stateful root) {
        this.root = root;
        this.fast = root instanceof Digestible d ? d : null;
        this.console = root instanceof Console c ? c : null;
        this.represented = console != null ? new RepresentationTerm(console) : null;
        this.layoutSeed = layoutSeed(root);
    }

    /** The digest of the current state (the fast path when the root has one). */
    public long digest() {
        final Digestible f = fast;
        return DigestKeys.fmix64(layoutSeed ^ (f != null ? f.digestTerm() : visitor.term(root, false)));
    }

    /**
     * {@code digest() != other.digest()}, usually without computing either: when the two roots are
     * consoles represented identically ({@link RepresentationTerm#sameAs}, e.g. two consoles of one
     * cartridge in a lockstep pair) their states are equal, and that check needs no catch-up of
     * lazily stepped parts (a console's PPU, which a digest must run to the present: most of the
     * cost of a digest taken every cycle) and no arithmetic. Only when the representations differ
     * (the states differ, or one engine has caught up a part the other has not yet) are the two
     * digests computed and compared. So this reports a difference exactly when the digests
     * differ, at the same cycle.
     */
    public boolean differsFrom(CycleDigest other) {
        final RepresentationTerm r = represented;
        if (r != null && other.represented != null && layoutSeed == other.layoutSeed && r.sameAs(other.represented)) {
            return false;
        }
        return digest() != other.digest();
    }

    /**
     * The representation digest of a console root: {@code fmix64(layoutSeed ^
     * RepresentationTerm.term())}, nothing caught up (see the class comment). O(1).
     */
    public long representation() {
        return DigestKeys.fmix64(layoutSeed ^ represented.term());
    }

    /**
     * The representation digest recomputed from scratch (slow; for checks): the visitor over
     * the description as represented ({@link Console#representation}), every memory hash
     * recomputed from its bytes, plus the APU's lag, which the console section's fourth word
     * (the open bus, 8 bits) carries above its value.
     */
    public long recomputeRepresentation() {
        final Console c = console;
        final long term = visitor.term(c::representation, true);
        final long lag = c.cycles() - c.apu().syncedCycle();
        return DigestKeys.fmix64(layoutSeed ^ (term + DigestKeys.section("console") * DigestKeys.w(3) * (lag << 8)));
    }

    /** The digest computed by visiting the description (the definition the fast path must equal). */
    public long reference() {
        return DigestKeys.fmix64(layoutSeed ^ visitor.term(root, false));
    }

    /** The digest with every memory hash recomputed from its bytes (slow; for checks). */
    public long recompute() {
        return DigestKeys.fmix64(layoutSeed ^ visitor.term(root, true));
    }

    public long layoutSeed() {
        return layoutSeed;
    }

    /** Hash of the ordered (tag, name, length) sequence of the description. */
    static long layoutSeed(Stateful root) {
        Describer d = new Describer();
        root.state(d);
        long h = 0x243F6A8885A308D3L;
        for (StateEntry e : d.entries()) {
            h = DigestKeys.fmix64(h ^ e.tag());
            String p = e.path();
            for (int i = 0; i < p.length(); i++) {
                h = (h ^ p.charAt(i)) * 0x100000001B3L;
            }
            h = DigestKeys.fmix64(h ^ e.length());
        }
        return h;
    }

    static long fmix64(long z) {
        return DigestKeys.fmix64(z);
    }
}
