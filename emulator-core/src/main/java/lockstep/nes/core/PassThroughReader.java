package lockstep.nes.core;

import lockstep.nes.state.StateVisitor;

/**
 * A reader that returns every value unchanged: a state visit that loads what is already there,
 * so that the engine goes through a load's catch-ups and rebuilt caches and changes nothing
 * ({@link Console#revisit}).
 */
final class PassThroughReader implements StateVisitor {
    static final PassThroughReader READER = new PassThroughReader();

    private PassThroughReader() {
    }

    @Override public boolean isReader() { return true; }
    @Override public void beginSection(String name) { }
    @Override public void endSection() { }
    @Override public boolean bool(String name, boolean value) { return value; }
    @Override public int u8(String name, int value) { return value; }
    @Override public int u16(String name, int value) { return value; }
    @Override public int i32(String name, int value) { return value; }
    @Override public long i64(String name, long value) { return value; }
    @Override public void bytes(String name, byte[] array) { }
    @Override public void ints(String name, int[] array) { }
}
