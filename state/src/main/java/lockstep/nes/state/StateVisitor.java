package lockstep.nes.state;

/**
 * Visits every mutable field of a component, in a fixed order, exactly once.
 *
 * <p>Each component has one {@code state(StateVisitor)} method that is used for saving,
 * loading, hashing and describing, so a field cannot be forgotten in one direction. Scalar
 * methods take the current value and return the value to store back:
 * a writer, hasher or describer returns its argument; a reader returns the loaded value.
 * Array methods read into or write from the given array in place (its length is fixed by
 * the component).
 *
 * <pre>{@code
 * public void state(StateVisitor s) {
 *   a = s.u8("a", a);
 *   pc = s.u16("pc", pc);
 *   halted = s.bool("halted", halted);
 *   s.bytes("ram", ram);
 * }
 * }</pre>
 *
 * Names are constant strings (no allocation on the hot path); a component's section name is
 * given by its owner through {@link #section}.
 */
public interface StateVisitor {

    /** Starts a named section (one per component, e.g. "cpu", "ppu", "apu.pulse1"). */
    void beginSection(String name);

    /** Ends the section started last. */
    void endSection();

    boolean bool(String name, boolean value);

    /** An unsigned 8-bit value held in an int (0..255). */
    int u8(String name, int value);

    /** An unsigned 16-bit value held in an int (0..65535). */
    int u16(String name, int value);

    int i32(String name, int value);

    long i64(String name, long value);

    /**
     * An unsigned 8-bit value whose real range is {@code 0..max} (a 3-bit fine scroll, a
     * sequencer step): a reader refuses a value above {@code max}. The default ignores the range.
     */
    default int u8(String name, int value, int max) {
        return u8(name, value);
    }

    /** An unsigned 16-bit value whose real range is {@code 0..max}; see {@link #u8(String, int, int)}. */
    default int u16(String name, int value, int max) {
        return u16(name, value);
    }

    /**
     * A 32-bit value whose real range is {@code min..max} (a scanline, a dot, an index used
     * without masking): a reader refuses a value outside it. The default ignores the range.
     */
    default int i32(String name, int value, int min, int max) {
        return i32(name, value);
    }

    /** A 64-bit value whose real range is {@code min..max}; see {@link #i32(String, int, int, int)}. */
    default long i64(String name, long value, long min, long max) {
        return i64(name, value);
    }

    /**
     * A fixed-length int array whose every element is in {@code min..max} (page offsets, bank
     * numbers that index a table): a reader refuses an element outside it.
     */
    default void ints(String name, int[] array, int min, int max) {
        ints(name, array);
    }

    /** A fixed-length byte memory, read or written in place. */
    void bytes(String name, byte[] array);

    /** A fixed-length int array, read or written in place. */
    void ints(String name, int[] array);

    /**
     * A {@link Memory}, visited as the byte array {@code m.name()}. The default visits its bytes
     * and, for a reader, recomputes its hash; a hasher overrides it to use {@link Memory#hash()}
     * (O(1)) instead of the bytes.
     */
    default void memory(Memory m) {
        bytes(m.name(), m.array());
        if (isReader()) {
            m.rehash();
        }
    }

    /** True for a visitor that loads values into the components (they must rebuild caches). */
    default boolean isReader() {
        return false;
    }

    /**
     * True for a visitor that returns every value it is given unchanged (it saves, describes or
     * hashes): a component's caches of its own terms stay valid after it. False by default, for
     * visitors that may change a value (a fault's poke).
     */
    default boolean onlyObserves() {
        return false;
    }

    /** Visits a stateful child component inside its own section. */
    default void section(String name, Stateful component) {
        beginSection(name);
        component.state(this);
        endSection();
    }
}
