package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/** {@link Dmc#fetched}: the implicit abort of a one-byte sample fetched just before the bit counter turns over. */
class DmcImplicitAbortUnitTest {
    /** A reader that sets the named fields and keeps the others. */
    private record Poke(Map<String, Integer> values) implements StateVisitor {
        @Override public boolean isReader() { return true; }
        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String name, boolean value) { return values.containsKey(name) ? values.get(name) != 0 : value; }
        @Override public int u8(String name, int value) { return values.getOrDefault(name, value); }
        @Override public int u16(String name, int value) { return values.getOrDefault(name, value); }
        @Override public int i32(String name, int value) { return values.getOrDefault(name, value); }
        @Override public long i64(String name, long value) { return value; }
        @Override public void bytes(String name, byte[] array) { }
        @Override public void ints(String name, int[] array) { }
    }

    private static Dmc dmcAt(int bitsRemaining, int timer, int sampleLength, boolean loop) {
        Dmc dmc = TestCarts.nopConsole().apu().dmc();
        dmc.state(new Poke(Map.of("bitsRemaining", bitsRemaining, "timer", timer, "sampleLength", sampleLength,
                "loop", loop ? 1 : 0, "bytesRemaining", 1, "bufferEmpty", 1, "period", 53)));
        return dmc;
    }

    @Test
    void aFetchOneCycleBeforeTheTurnOverRestartsTheSampleForThreeCycles() {
        for (int timer = 0; timer < 2; timer++) {
            Dmc dmc = dmcAt(1, timer, 1, false);
            dmc.fetched(0x55);
            assertEquals(1, dmc.bytesRemaining, "restarted (timer " + timer + ")");
            dmc.stepDelays();
            dmc.stepDelays();
            assertEquals(1, dmc.bytesRemaining);
            dmc.stepDelays();
            assertEquals(0, dmc.bytesRemaining, "stopped 3 cycles later");
        }
    }

    @Test
    void otherPhasesLengthsAndLoopingSamplesEndAsUsual() {
        Dmc[] cases = {dmcAt(1, 2, 1, false), dmcAt(2, 0, 1, false), dmcAt(1, 0, 17, false)};
        for (Dmc dmc : cases) {
            dmc.fetched(0x55);
            assertEquals(0, dmc.bytesRemaining);
        }
        Dmc looping = dmcAt(1, 0, 1, true);
        looping.fetched(0x55);
        assertEquals(1, looping.bytesRemaining, "a looping sample restarts as always");
        for (int i = 0; i < 5; i++) {
            looping.stepDelays();
        }
        assertEquals(1, looping.bytesRemaining, "and is not stopped");
    }
}
