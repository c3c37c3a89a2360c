package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;

/**
 * The engine allocates nothing per frame once running: running frames, reading the audio each
 * frame, and stepping two engines in lockstep with their per-cycle digests compared. Counted
 * with the JVM's per-thread allocation counter, so it holds with or without the JIT's escape
 * analysis (the interpreter and C1 allocate every {@code new} they run); the demo ROM plays
 * music and scrolls sprites, so the APU's catch-up and the audio output are exercised.
 */
class SteadyStateAllocationTest {
    /** Frames per counted window, after four windows of warm-up. */
    private static final int FRAMES = 120;
    private static final int LOCKSTEP_FRAMES = 15;

    private static com.sun.management.ThreadMXBean threads() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter on this JVM");
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled(),
            "per-thread allocation counting is off");
        return t;
    }

    /** Bytes this thread allocated while {@code work} ran, less the counter's own reading. */
    private static long allocatedBy(com.sun.management.ThreadMXBean t, Runnable work) {
        long b0 = t.getCurrentThreadAllocatedBytes();
        long b1 = t.getCurrentThreadAllocatedBytes();
        work.run();
        long b2 = t.getCurrentThreadAllocatedBytes();
        return (b2 - b1) - (b1 - b0);
    }

    /**
     * Asserts that {@code work} allocates nothing: a window that allocates is run again, up to
     * three windows in all, and one of them must allocate nothing. Anything the engine allocates
     * per frame shows in every window; what a loaded JVM does once (a late deoptimization and
     * recompilation, seen once as 400 bytes on a busy machine) does not repeat. The message
     * lists every window's bytes.
     */
    private static void assertAllocatesNothing(com.sun.management.ThreadMXBean t, Runnable work, String what) {
        StringBuilder windows = new StringBuilder();
        for (int window = 0; window < 3; window++) {
            long bytes = allocatedBy(t, work);
            if (bytes == 0) {
                return;
            }
            windows.append(window == 0 ? "" : ", ").append(bytes);
        }
        throw new AssertionError("bytes allocated in " + what + ", three windows in a row: " + windows);
    }

    @Test
    void framesAndAudioAllocateNothing() throws Exception {
        com.sun.management.ThreadMXBean t = threads();
        Console c = Console.create(DemoRom.cartridge());
        short[] audio = new short[4096];
        Runnable frames = () -> {
            for (int i = 0; i < FRAMES; i++) {
                c.runFrame();
                while (c.apu().audio().read(audio, 0, audio.length) > 0) {
                    // drain
                }
            }
        };
        for (int i = 0; i < 4; i++) {
            frames.run();
        }
        assertAllocatesNothing(t, frames, FRAMES + " frames");
    }

    @Test
    void lockstepWithDigestsAllocatesNothing() throws Exception {
        com.sun.management.ThreadMXBean t = threads();
        Console a = Console.create(DemoRom.cartridge());
        Console b = Console.create(DemoRom.cartridge());
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        long[] mismatches = new long[1];
        Runnable frames = () -> {
            for (int i = 0; i < LOCKSTEP_FRAMES; i++) {
                long f = a.frame();
                while (a.frameAfterCycle() == f) {
                    a.runCycle();
                    b.runCycle();
                    if (da.differsFrom(db)) {
                        mismatches[0]++;
                    }
                }
            }
        };
        for (int i = 0; i < 4; i++) {
            frames.run();
        }
        assertAllocatesNothing(t, frames, LOCKSTEP_FRAMES + " lockstep frames");
        assertEquals(0, mismatches[0], "the two engines' digests differ");
    }
}
