package lockstep.nes.state;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * Describes visited state as a list of {@code component.field -> value} entries in visiting
 * order (arrays are copied). Also records which object each {@link #section(String, Stateful)}
 * visited, for the test that checks descriptions against the classes' fields.
 */
public final class Describer implements StateVisitor {
    /** Every value visited is returned as given. */
    @Override
    public boolean onlyObserves() {
        return true;
    }

    /** A component visited through {@link StateVisitor#section}: its section path and object. */
    public record Visited(String path, Object component) {
    }

    private final List<StateEntry> entries = new ArrayList<>();
    private final List<FieldRange> ranges = new ArrayList<>();
    private final List<Visited> visited = new ArrayList<>();
    private final List<String> sections = new ArrayList<>();

    /** Describes {@code root} (e.g. a Console). */
    public static List<StateEntry> describe(Stateful root) {
        Describer d = new Describer();
        root.state(d);
        return d.entries();
    }

    public List<StateEntry> entries() {
        return entries;
    }

    /** The range of every scalar and int array, in visiting order (declared or implied). */
    public List<FieldRange> ranges() {
        return ranges;
    }

    public List<Visited> visited() {
        return visited;
    }

    private String path(String name) {
        if (sections.isEmpty()) {
            return name;
        }
        return sections.get(sections.size() - 1) + "." + name;
    }

    @Override
    public void section(String name, Stateful component) {
        visited.add(new Visited(path(name), component));
        StateVisitor.super.section(name, component);
    }

    @Override
    public void beginSection(String name) {
        String p = path(name);
        entries.add(new StateEntry(p, EntryTag.SECTION, 0, null, null));
        sections.add(p);
    }

    @Override
    public void endSection() {
        sections.remove(sections.size() - 1);
    }

    @Override
    public boolean bool(String name, boolean value) {
        add(new StateEntry(path(name), EntryTag.BOOL, value ? 1 : 0, null, null));
        return value;
    }

    @Override
    public int u8(String name, int value) {
        add(new StateEntry(path(name), EntryTag.U8, value & 0xFF, null, null));
        return value;
    }

    @Override
    public int u16(String name, int value) {
        add(new StateEntry(path(name), EntryTag.U16, value & 0xFFFF, null, null));
        return value;
    }

    @Override
    public int i32(String name, int value) {
        add(new StateEntry(path(name), EntryTag.I32, value, null, null));
        return value;
    }

    @Override
    public long i64(String name, long value) {
        add(new StateEntry(path(name), EntryTag.I64, value, null, null));
        return value;
    }

    @Override
    public void bytes(String name, byte[] array) {
        entries.add(new StateEntry(path(name), EntryTag.BYTES, 0, array.clone(), null));
    }

    @Override
    public void ints(String name, int[] array) {
        add(new StateEntry(path(name), EntryTag.INTS, 0, null, array.clone()));
    }

    @Override
    public int u8(String name, int value, int max) {
        return (int) declared(u8(name, value), 0, max);
    }

    @Override
    public int u16(String name, int value, int max) {
        return (int) declared(u16(name, value), 0, max);
    }

    @Override
    public int i32(String name, int value, int min, int max) {
        return (int) declared(i32(name, value), min, max);
    }

    @Override
    public long i64(String name, long value, long min, long max) {
        return declared(i64(name, value), min, max);
    }

    @Override
    public void ints(String name, int[] array, int min, int max) {
        ints(name, array);
        declared(0, min, max);
    }

    /** Adds an entry with the range its kind implies. */
    private void add(StateEntry e) {
        entries.add(e);
        ranges.add(FieldRange.implied(e.path(), e.tag()));
    }

    /** Replaces the implied range of the entry just added by the declared one. */
    private long declared(long value, long min, long max) {
        FieldRange last = ranges.get(ranges.size() - 1);
        ranges.set(ranges.size() - 1, new FieldRange(last.path(), last.tag(), min, max, true));
        return value;
    }
}
