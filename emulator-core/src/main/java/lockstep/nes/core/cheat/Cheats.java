package lockstep.nes.core.cheat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The cheats in effect on one console: up to {@link #MAX} codes, each substituting the value CPU
 * reads of its address see (a Game Genie sits between the cartridge and the console; a raw code
 * may name any address). Described state: a snapshot carries the codes, the digest sees them, and
 * two engines of a lockstep pair run with the same ones.
 *
 * <p>Each slot is {@code entries[i] = 1 << 24 | value << 16 | address} (0: empty) and
 * {@code compares[i] = 1 + compare} (0: no compare value); the used slots come first. The
 * console describes this section only while a slot is used ({@link #described}), so a console
 * without cheats is described, hashed and snapshotted exactly as one that has never heard of them.
 */
public final class Cheats implements Stateful {
    /** The most codes one console holds. */
    public static final int MAX = 32;
    private static final int USED = 1 << 24;

    private final int[] entries = new int[MAX];
    private final int[] compares = new int[MAX];

    /** Which of the 65,536 addresses a used slot names (one bit each), rebuilt from the slots. */
    @NotState("cache of entries: the addresses a code names")
    private final long[] named = new long[1024];
    /** The used slots, counted from {@link #entries}. */
    @NotState("cache of entries: how many slots are used")
    private int count;
    /** The section's digest term ({@link DigestTerm#of}), rebuilt from the slots. */
    @NotState("cache of the slots' digest term")
    private long term;

    /** Puts {@code cheats} in effect (in order: where two name one address, the first that matches wins). */
    public void set(List<Cheat> cheats) {
        if (cheats.size() > MAX) {
            throw new IllegalArgumentException("at most " + MAX + " cheats, not " + cheats.size());
        }
        java.util.Arrays.fill(entries, 0);
        java.util.Arrays.fill(compares, 0);
        for (int i = 0; i < cheats.size(); i++) {
            final Cheat c = cheats.get(i);
            entries[i] = USED | c.value() << 16 | c.address();
            compares[i] = c.compare() + 1;
        }
        rebuild();
    }

    /** The cheats in effect, as raw codes ({@link Cheat#raw}; a snapshot keeps what they do, not how they were written). */
    public List<Cheat> list() {
        final List<Cheat> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final int e = entries[i];
            final int address = e & 0xFFFF;
            final int value = (e >>> 16) & 0xFF;
            out.add(Cheat.of(address, value, compares[i] - 1));
        }
        return Collections.unmodifiableList(out);
    }

    /** True when at least one code is in effect. */
    public boolean active() {
        return count > 0;
    }

    /**
     * True when the slots hold anything (the console describes the section then): read off the
     * slots themselves, not the caches.
     */
    public boolean described() {
        for (int i = 0; i < MAX; i++) {
            if ((entries[i] | compares[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    /** True when a code names {@code address}. */
    public boolean names(int address) {
        return (named[address >>> 6] & (1L << address)) != 0;
    }

    /**
     * What a CPU read of {@code address} sees when the bus holds {@code value}: the first code
     * naming the address whose compare value (if any) equals {@code value} substitutes its own.
     */
    public int apply(int address, int value) {
        if ((named[address >>> 6] & (1L << address)) == 0) {
            return value;
        }
        for (int i = 0; i < count; i++) {
            final int e = entries[i];
            if ((e & 0xFFFF) == address && (compares[i] == 0 || compares[i] - 1 == value)) {
                return (e >>> 16) & 0xFF;
            }
        }
        return value;
    }

    /** The digest term of this section (0 without cheats, when the console does not describe it). */
    public long term() {
        return term;
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("entries", entries, 0, USED | 0xFFFFFF);
        s.ints("compares", compares, 0, 0x100);
        if (s.isReader()) {
            rebuild();
        }
    }

    /** Empties every slot (a snapshot without cheats was loaded). */
    public void clear() {
        set(List.of());
    }

    private void rebuild() {
        java.util.Arrays.fill(named, 0);
        int n = 0;
        while (n < MAX && (entries[n] & USED) != 0) {
            final int address = entries[n] & 0xFFFF;
            named[address >>> 6] |= 1L << address;
            n++;
        }
        count = n;
        term = described() ? DigestTerm.of(this) : 0;
    }
}
